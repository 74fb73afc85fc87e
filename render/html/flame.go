package html

import (
	"cmp"
	"math"
	"slices"

	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/stacks"
)

// flameJSON is the flame graph: the synthesised stacks merged into a tree
// of frames, in depth-first order (a frame's parent comes before it,
// siblings heaviest first). Frame 0 is the root, all stacks. Plus and
// Minus are each side's time through the frame (its callees' included),
// in nanoseconds. The differential page also has each frame's own time
// on each side (SelfPlus, SelfMinus: what the frame holds beyond its
// callees, in nanoseconds), which colours it, and Noise marks the frames
// whose change of own time is within sampling noise.
type flameJSON struct {
	Fn        []int   `json:"fn"` // name id; -1 for the root
	Parent    []int32 `json:"parent"`
	Plus      []int64 `json:"plus"`
	Minus     []int64 `json:"minus,omitempty"`
	SelfPlus  []int64 `json:"self_plus,omitempty"`
	SelfMinus []int64 `json:"self_minus,omitempty"`
	Noise     []int8  `json:"noise,omitempty"`
	// Left counts the frames left out by the bound and LeftNanos the
	// '+' and '-' time they held (below their kept callers).
	Left      int      `json:"left"`
	LeftNanos [2]int64 `json:"left_ns"`
	// Routed is the share of the self time whose stacks were routed
	// whole by the synthesis bounds (stacks.Stats).
	Routed  float64 `json:"routed"`
	Deepest int     `json:"deepest"`
}

// frame is a node of the merged stack tree.
type frame struct {
	fn     int32
	parent int32
	plus   [2]int64 // nanoseconds, samples
	minus  [2]int64
}

// flameGraph merges d's synthesised stacks into a frame tree, keeps the
// heaviest opt.MaxFlameNodes frames and names each frame by id(function).
func flameGraph(d *diff.Profile, opt Options, id []int) (*flameJSON, Stats, error) {
	r, err := stacks.Synthesise(d, opt.Stacks)
	if err != nil {
		return nil, Stats{}, err
	}
	// Each stack's values go on its leaf frame first (the frame's own
	// time); the frames' times, callees included, are summed up the tree
	// afterwards. Consecutive stacks share most of their callers, so the
	// walk down a stack starts where it leaves the previous one's path.
	frames := []frame{{fn: -1, parent: -1}}
	child := map[uint64]int32{}
	var pathFn, pathNode []int32 // the previous stack, root first
	for _, s := range r.Stacks {
		at, k := int32(0), 0
		for ; k < len(s.Funcs) && k < len(pathFn) && pathFn[k] == s.Funcs[len(s.Funcs)-1-k]; k++ {
			at = pathNode[k]
		}
		pathFn, pathNode = pathFn[:k], pathNode[:k]
		for ; k < len(s.Funcs); k++ {
			fn := s.Funcs[len(s.Funcs)-1-k]
			key := uint64(uint32(at))<<32 | uint64(uint32(fn))
			n, ok := child[key]
			if !ok {
				n = int32(len(frames))
				frames = append(frames, frame{fn: fn, parent: at})
				child[key] = n
			}
			pathFn, pathNode = append(pathFn, fn), append(pathNode, n)
			at = n
		}
		f := &frames[at]
		f.plus[0] += s.Plus.Nanos
		f.plus[1] += s.Plus.Samples
		f.minus[0] += s.Minus.Nanos
		f.minus[1] += s.Minus.Samples
	}
	// A frame's callers were made before it.
	own := make([]frame, len(frames))
	copy(own, frames)
	for i := len(frames) - 1; i > 0; i-- {
		p := &frames[frames[i].parent]
		for k := range 2 {
			p.plus[k] += frames[i].plus[k]
			p.minus[k] += frames[i].minus[k]
		}
	}
	weight := func(f *frame) int64 { return abs(f.plus[0]) + abs(f.minus[0]) }

	// Keep the heaviest frames. A frame weighs at most its parent, so the
	// kept frames form a tree; ties at the limit go to the earlier frame,
	// whose parent came before it.
	keep := make([]bool, len(frames))
	order := make([]int32, len(frames))
	for i := range order {
		order[i] = int32(i)
	}
	heavier := func(a, b int32) int {
		if c := cmp.Compare(weight(&frames[b]), weight(&frames[a])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	slices.SortFunc(order, heavier)
	limit := min(opt.MaxFlameNodes, len(frames))
	for _, i := range order[:limit] {
		keep[i] = true
	}
	fl := &flameJSON{Deepest: r.Stats.Deepest}
	if r.Stats.TotalTime > 0 {
		fl.Routed = r.Stats.RoutedTime / r.Stats.TotalTime
	}
	kids := make([][]int32, len(frames))
	for i := 1; i < len(frames); i++ {
		f := &frames[i]
		if !keep[i] || !keep[f.parent] {
			keep[i] = false
			fl.Left++
			if keep[f.parent] {
				fl.LeftNanos[0] += f.plus[0]
				fl.LeftNanos[1] += f.minus[0]
			}
			continue
		}
		kids[f.parent] = append(kids[f.parent], int32(i))
	}
	for i := range kids {
		slices.SortFunc(kids[i], heavier)
	}
	diffPage := d.IsDiff()
	kp, km := d.PlusScale, d.MinusScale
	hzp, hzm := d.PlusHZ(), d.MinusHZ()
	// Depth-first, siblings heaviest first.
	pos := make([]int32, len(frames))
	stack := []int32{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f := &frames[i]
		pos[i] = int32(len(fl.Fn))
		fn, parent := -1, int32(-1)
		if i != 0 {
			fn, parent = id[f.fn], pos[f.parent]
		}
		fl.Fn = append(fl.Fn, fn)
		fl.Parent = append(fl.Parent, parent)
		fl.Plus = append(fl.Plus, f.plus[0])
		if diffPage {
			fl.Minus = append(fl.Minus, f.minus[0])
			fl.SelfPlus = append(fl.SelfPlus, own[i].plus[0])
			fl.SelfMinus = append(fl.SelfMinus, own[i].minus[0])
			fl.Noise = append(fl.Noise, boolByte(!opt.NoiseOff && withinNoise(&own[i], kp, km, hzp, hzm)))
		}
		for k := len(kids[i]) - 1; k >= 0; k-- {
			stack = append(stack, kids[i][k])
		}
	}
	return fl, Stats{FlameNodes: len(fl.Fn), FlameLeft: fl.Left}, nil
}

// withinNoise reports whether the change of a frame's time (f holds its
// own time) is within diff.NoiseSEs standard errors of sampling noise,
// each side's samples taken as one Poisson count (as
// diff.Function.NoiseSE takes a function's self samples).
func withinNoise(f *frame, kp, km, hzp, hzm float64) bool {
	plus, minus := float64(f.plus[1]), float64(f.minus[1])
	delta := 0.0
	if hzp > 0 {
		delta += plus / hzp
	}
	if hzm > 0 {
		delta -= minus / hzm
	}
	return math.Abs(delta) <= diff.NoiseSEs*diff.CountNoiseSE(plus, kp, hzp, minus, km, hzm)
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func boolByte(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

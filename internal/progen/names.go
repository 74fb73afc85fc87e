package progen

import (
	"strconv"
	"strings"
)

// Word lists for function names, as constants so that the package has no
// mutable state. Combinations never clash with libc or C keywords; a
// numeric suffix makes repeated picks unique.
const (
	verbList = "parse emit hash scan eval walk sort merge fold load store check " +
		"update visit reduce mix step probe lookup flush encode decode grow split " +
		"join trace count render apply shift pack unpack"
	nounList = "node tree buf list table token expr block entry state frame page " +
		"key item graph path edge cell row chunk span slot ring heap"
	cmpList    = "cmp_items compare_keys by_weight order_rows cmp_int"
	keyList    = "sort_key key_of weight_of rank_of"
	hotList    = "tiny inc mix32 step_once hot_leaf"
	workerList = "worker thread_main run_jobs bg_task"
)

// words splits a word list.
func words(list string) []string { return strings.Fields(list) }

// newName returns a fresh identifier suited to role. Most names are
// verb_noun; some are CamelCase, start with an underscore, carry digits, or
// are longer than the 19 characters gprof -T keeps, to vary sorting and
// layout.
func (g *gen) newName(role Role) string {
	r := g.r
	var base string
	switch role {
	case RoleComparator:
		base = pick(r, words(cmpList))
	case RoleKey:
		base = pick(r, words(keyList))
	case RoleHot:
		base = pick(r, words(hotList))
	case RoleThread:
		base = pick(r, words(workerList))
	default:
		v, n := pick(r, words(verbList)), pick(r, words(nounList))
		switch x := r.float(); {
		case x < 0.08:
			base = upperFirst(v) + upperFirst(n)
		case x < 0.12:
			base = "_" + v + "_" + n
		case x < 0.2:
			base = v + "_" + n + strconv.Itoa(r.between(0, 99))
		case x < 0.26:
			base = v + "_the_" + n + "_" + pick(r, words(nounList)) + "_" + pick(r, words(verbList)) + "_slowly"
		case x < 0.3:
			base = n + "_" + v
		default:
			base = v + "_" + n
		}
	}
	name := base
	for k := 2; g.names[name]; k++ {
		name = base + "_" + strconv.Itoa(k)
	}
	g.names[name] = true
	return name
}

// upperFirst upper-cases the first (ASCII) letter of s.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// itoa is strconv.Itoa.
func itoa(i int) string { return strconv.Itoa(i) }

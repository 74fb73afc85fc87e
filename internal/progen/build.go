package progen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BuildOptions selects how Program.Build compiles a program.
type BuildOptions struct {
	// GCC is the compiler command; "" means "gcc".
	GCC string
	// Opt is the optimisation flag, such as "-O0" or "-O2"; "" means "-O0".
	Opt string
	// Debug adds -g (needed for gprof -l).
	Debug bool
	// Flags are appended to the command line.
	Flags []string
}

// flags returns the compiler flags, without program-specific ones.
func (o BuildOptions) flags() []string {
	opt := o.Opt
	if opt == "" {
		opt = "-O0"
	}
	flags := []string{"-pg", opt}
	if o.Debug {
		flags = append(flags, "-g")
	}
	return append(flags, o.Flags...)
}

// Args returns the compiler arguments for compiling p's source file src
// into out. p may be nil.
func (o BuildOptions) Args(p *Program, src, out string) []string {
	args := o.flags()
	if p != nil {
		args = append(args, p.CFlags()...)
	}
	return append(args, "-o", out, src)
}

// String returns the compiler flags, such as "-pg -O2 -g".
func (o BuildOptions) String() string {
	return strings.Join(o.flags(), " ")
}

// Build writes the source to dir/prog.c and compiles it (in dir, so that
// debug information names the file prog.c) into dir/prog. It returns the
// path of the executable.
func (p *Program) Build(ctx context.Context, dir string, opts BuildOptions) (string, error) {
	if err := os.WriteFile(filepath.Join(dir, "prog.c"), []byte(p.Source), 0o666); err != nil {
		return "", err
	}
	if err := compile(ctx, dir, opts.GCC, opts.Args(p, "prog.c", "prog")); err != nil {
		return "", fmt.Errorf("seed %d: %w", p.Seed, err)
	}
	return filepath.Join(dir, "prog"), nil
}

// compile runs the compiler in dir.
func compile(ctx context.Context, dir, gcc string, args []string) error {
	if gcc == "" {
		gcc = "gcc"
	}
	cmd := exec.CommandContext(ctx, gcc, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", gcc, strings.Join(args, " "), err, out)
	}
	return nil
}

// RunForProfile runs the profiled executable bin with dir as its working
// directory and returns the path of the gmon.out it wrote. A missing
// gmon.out (for instance after glibc's arc table overflowed) is an error,
// and so is a non-zero exit status.
func RunForProfile(ctx context.Context, dir, bin string) (string, error) {
	gmon := filepath.Join(dir, "gmon.out")
	if err := os.Remove(gmon); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = dir
	// GMON_OUT_PREFIX would rename the output file.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GMON_OUT_PREFIX=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr bytes.Buffer
	cmd.Stdout = &stderr
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("running %s: %v\n%s", bin, err, stderr.Bytes())
	}
	if _, err := os.Stat(gmon); err != nil {
		return "", fmt.Errorf("%s wrote no gmon.out: %v\n%s", bin, err, stderr.Bytes())
	}
	return gmon, nil
}

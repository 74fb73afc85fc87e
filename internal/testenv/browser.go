package testenv

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// RequireBrowserVar is the environment variable that, set to 1, makes a
// test that needs a headless browser fail instead of skipping when none is
// installed (CI installs Debian's chromium and sets it).
const RequireBrowserVar = "EGPROF_REQUIRE_BROWSER"

// Browser returns the path of a Chromium to run headless, skipping the
// test without one (failing it when RequireBrowserVar is 1).
func Browser(t testing.TB) string {
	t.Helper()
	// The names a Chromium is installed under.
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv(RequireBrowserVar) == "1" {
		t.Fatalf("no chromium on PATH (%s=1); apt-get install chromium", RequireBrowserVar)
	}
	t.Skip("no chromium on PATH (apt-get install chromium)")
	return ""
}

// DumpDOM loads the local file page (with #fragment unless it is empty)
// in the headless browser, in a window of 1400 x 900 pixels, and returns
// the DOM as its scripts left it. A browser that fails or takes more than
// a minute fails the test.
func DumpDOM(t testing.TB, browser, page, fragment string) string {
	t.Helper()
	abs, err := filepath.Abs(page)
	if err != nil {
		t.Fatal(err)
	}
	u := url.URL{Scheme: "file", Path: abs, Fragment: fragment}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	// (--single-process would start faster, but crashes on large pages.)
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1400,900",
		"--user-data-dir=" + t.TempDir(), "--dump-dom", u.String()}
	res := Run(ctx, t, browser, ".", append([]string{browser}, args...))
	if res.Code != 0 || res.Stdout == "" {
		t.Fatalf("%s --dump-dom %s: exit status %d\n%s", browser, u.String(), res.Code, res.Stderr)
	}
	return res.Stdout
}

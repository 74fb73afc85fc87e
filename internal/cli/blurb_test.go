package cli

import "github.com/egprof/egprof/render"

func flatBlurbForTest() string         { return render.FlatBlurb }
func callGraphBlurbForTest() string    { return render.CallGraphBlurb }
func callGraphBSDBlurbForTest() string { return render.CallGraphBlurbBSD }

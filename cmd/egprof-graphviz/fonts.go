package main

import (
	"fmt"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// faceKey names a face of the Go fonts: bold or regular, and its size in
// pixels.
type faceKey struct {
	bold bool
	size float64
}

// fonts are the Go fonts, regular and bold; they may be used by several
// goroutines at once, each with faces of its own (a face is not safe for
// concurrent use).
type fonts struct {
	regular, bold *opentype.Font
}

// faceCache is one goroutine's faces, made as asked for.
type faceCache struct {
	fonts *fonts
	faces map[faceKey]font.Face
}

// newFaceCache returns an empty cache of faces of f.
func newFaceCache(f *fonts) faceCache {
	return faceCache{fonts: f, faces: map[faceKey]font.Face{}}
}

// face returns the face k.
func (c faceCache) face(k faceKey) (font.Face, error) {
	if f, ok := c.faces[k]; ok {
		return f, nil
	}
	ft := c.fonts.regular
	if k.bold {
		ft = c.fonts.bold
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: k.size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("font of size %g: %w", k.size, err)
	}
	c.faces[k] = f
	return f, nil
}

// newFonts loads the Go fonts, regular and bold.
func newFonts() (*fonts, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("loading the Go font: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("loading the Go bold font: %w", err)
	}
	return &fonts{regular: regular, bold: bold}, nil
}

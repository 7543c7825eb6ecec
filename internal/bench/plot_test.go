package bench

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func TestNiceScale(t *testing.T) {
	for _, c := range []struct{ max, step, end float64 }{
		{0.66, 0.2, 0.8}, {34, 10, 40}, {392, 100, 400}, {1568, 500, 2000}, {3.11, 1, 4}, {10, 2, 10}, {0, 1, 1},
	} {
		step, end := NiceScale(c.max, 5)
		if !near(step, c.step) || !near(end, c.end) {
			t.Errorf("NiceScale(%v) = %v, %v; want %v, %v", c.max, step, end, c.step, c.end)
		}
	}
	if FormatTick(0.4, 0.2) != "0.4" || FormatTick(400, 100) != "400" || FormatTick(0.05, 0.05) != "0.05" {
		t.Error("FormatTick")
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func TestFont(t *testing.T) {
	for r, g := range glyphs {
		for _, row := range g {
			if row >= 1<<glyphW {
				t.Errorf("glyph %q is wider than %d pixels", r, glyphW)
			}
		}
	}
	for _, r := range "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ().,-/:%_=+×" {
		if _, ok := glyphs[r]; !ok {
			t.Errorf("no glyph for %q", r)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	DrawText(img, 0, 0, "1", black, 1, false)
	// '1' is 0x04, 0x0C, 0x04...: its top row has one pixel, in column 2.
	if img.RGBAAt(2, 0) != black || img.RGBAAt(1, 0) == black || img.RGBAAt(2, 6) != black {
		t.Error("DrawText '1'")
	}
	if TextWidth("ab", 2) != 22 || TextWidth("", 2) != 0 {
		t.Errorf("TextWidth = %d", TextWidth("ab", 2))
	}
	// Vertical text runs upwards from (x, y); an unknown rune is a box, drawn inside the image only.
	img = image.NewRGBA(image.Rect(0, 0, 20, 20))
	DrawText(img, 0, 19, "☃", black, 1, true)
	if img.RGBAAt(0, 18) != black || img.RGBAAt(0, 14) != black {
		t.Error("vertical unknown glyph")
	}
	DrawText(img, 18, 18, "WWW", black, 3, false) // clipped, no panic
}

func TestPlanTimePlot(t *testing.T) {
	r := testResults("default")
	p := PlanTimePlot(r)
	if len(p.Series) != 4 {
		t.Fatalf("%d series", len(p.Series))
	}
	// (a) has two successful no-change sizes; (b)'s failed drift is not plotted.
	if got := p.Series[0].Points; len(got) != 2 || got[0] != (Point{50, 1}) || got[1] != (Point{100, 2}) {
		t.Errorf("(a) points %v", got)
	}
	if got := p.Series[1].Points; len(got) != 1 || got[0] != (Point{100, 12}) {
		t.Errorf("(b) points %v", got)
	}
	var buf bytes.Buffer
	if err := p.WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 600 {
		t.Errorf("size %v", b)
	}
	counts := map[color.RGBA]int{}
	for y := range 600 {
		for x := range 960 {
			r, g, b, a := img.At(x, y).RGBA()
			counts[color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: uint8(a >> 8)}]++
		}
	}
	for name, c := range map[string]color.RGBA{"(a) blue": Blue, "(b) red": Red, "(c) green": Green, "(d) amber": Amber, "text black": black} {
		if counts[c] < 100 {
			t.Errorf("%s: %d pixels", name, counts[c])
		}
	}
	// The (a) line runs from (50, 1 s) to (100, 2 s): its end point, at the far right of the x
	// axis (0..100) and at 2 s on the y axis (0..15 s for 12 s of (b)), is blue.
	x1, y0, y1 := 960-marginRight, 600-marginBot, marginTop
	if _, end := NiceScale(12, 5); end != 15 {
		t.Fatalf("y axis ends at %v", end)
	}
	y := y0 - (y0-y1)*2/15
	if got := img.At(x1, y); got != Blue {
		t.Errorf("pixel at the (a) end point (%d, %d) is %v", x1, y, got)
	}
}

func TestRenderEmpty(t *testing.T) {
	img := Plot{Title: "empty", Width: 300, Height: 200, Series: []Series{{Name: "none", Color: Red}}}.Render()
	if img.Bounds().Dx() != 300 {
		t.Error("size")
	}
}

package bench

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"slices"
	"strconv"
)

// Point is one measurement of a series.
type Point struct{ X, Y float64 }

// Series is one line of the plot.
type Series struct {
	Name   string
	Color  color.RGBA
	Marker Marker
	Points []Point // in order of X
}

// Marker is the shape drawn at each point of a series.
type Marker int

// The markers.
const (
	Square Marker = iota
	Disc
	Diamond
	Cross
)

// Colours of the variants' series.
var (
	Blue   = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	Red    = color.RGBA{R: 214, G: 39, B: 40, A: 255}
	Green  = color.RGBA{R: 44, G: 160, B: 44, A: 255}
	Amber  = color.RGBA{R: 255, G: 127, B: 14, A: 255}
	Purple = color.RGBA{R: 148, G: 103, B: 189, A: 255}
	Brown  = color.RGBA{R: 140, G: 86, B: 75, A: 255}
	Teal   = color.RGBA{R: 23, G: 190, B: 207, A: 255}
	Olive  = color.RGBA{R: 188, G: 189, B: 34, A: 255}
	Pink   = color.RGBA{R: 227, G: 119, B: 194, A: 255}
	Grey   = color.RGBA{R: 127, G: 127, B: 127, A: 255}
	black  = color.RGBA{A: 255}
	grey   = color.RGBA{R: 225, G: 225, B: 225, A: 255}
	white  = color.RGBA{R: 255, G: 255, B: 255, A: 255}
)

// Plot is a line chart: axes from zero with ticks and values, a polyline with markers per
// series, and a legend.
type Plot struct {
	Title, XLabel, YLabel string
	Width, Height         int
	Series                []Series
}

const (
	textScale   = 2
	marginLeft  = 100
	marginRight = 30
	marginTop   = 50
	marginBot   = 75
)

// Render draws the plot.
func (p Plot) Render() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	draw.Draw(img, img.Bounds(), &image.Uniform{C: white}, image.Point{}, draw.Src)
	x0, y0 := marginLeft, p.Height-marginBot // the origin
	x1, y1 := p.Width-marginRight, marginTop // the far corner
	var maxX, maxY float64
	for _, s := range p.Series {
		for _, pt := range s.Points {
			maxX, maxY = math.Max(maxX, pt.X), math.Max(maxY, pt.Y)
		}
	}
	xStep, xMax := NiceScale(maxX, 5)
	yStep, yMax := NiceScale(maxY, 5)
	px := func(v float64) int { return x0 + int(math.Round(v/xMax*float64(x1-x0))) }
	py := func(v float64) int { return y0 - int(math.Round(v/yMax*float64(y0-y1))) }

	// Grid, ticks and tick values.
	th := TextHeight(textScale)
	for v := 0.0; v <= xMax*(1+1e-9); v += xStep {
		x := px(v)
		line(img, x, y0, x, y1, grey, 1)
		line(img, x, y0, x, y0+6, black, 1)
		label := FormatTick(v, xStep)
		DrawText(img, x-TextWidth(label, textScale)/2, y0+10, label, black, textScale, false)
	}
	for v := 0.0; v <= yMax*(1+1e-9); v += yStep {
		y := py(v)
		line(img, x0, y, x1, y, grey, 1)
		line(img, x0-6, y, x0, y, black, 1)
		label := FormatTick(v, yStep)
		DrawText(img, x0-10-TextWidth(label, textScale), y-th/2, label, black, textScale, false)
	}
	line(img, x0, y0, x1, y0, black, 2)
	line(img, x0, y0, x0, y1, black, 2)

	// Labels.
	DrawText(img, (p.Width-TextWidth(p.Title, textScale))/2, (marginTop-th)/2, p.Title, black, textScale, false)
	DrawText(img, x0+(x1-x0-TextWidth(p.XLabel, textScale))/2, p.Height-th-10, p.XLabel, black, textScale, false)
	DrawText(img, 12, y0-(y0-y1-TextWidth(p.YLabel, textScale))/2, p.YLabel, black, textScale, true)

	// Series, the last first: the first (the measured provider) is drawn on top where lines meet.
	for k := len(p.Series) - 1; k >= 0; k-- {
		s := p.Series[k]
		for i := 1; i < len(s.Points); i++ {
			a, b := s.Points[i-1], s.Points[i]
			line(img, px(a.X), py(a.Y), px(b.X), py(b.Y), s.Color, 3)
		}
		for _, pt := range s.Points {
			marker(img, px(pt.X), py(pt.Y), s.Marker, s.Color)
		}
	}

	// Legend, top left inside the axes.
	lx, ly := x0+20, y1+15
	wide := 0
	for _, s := range p.Series {
		wide = max(wide, TextWidth(s.Name, textScale))
	}
	rowH := th + 12
	box := image.Rect(lx-10, ly-10, lx+50+wide+10, ly+len(p.Series)*rowH)
	draw.Draw(img, box, &image.Uniform{C: white}, image.Point{}, draw.Src)
	rectOutline(img, box, black)
	for i, s := range p.Series {
		y := ly + i*rowH + th/2
		line(img, lx, y, lx+36, y, s.Color, 3)
		marker(img, lx+18, y, s.Marker, s.Color)
		DrawText(img, lx+50, y-th/2, s.Name, black, textScale, false)
	}
	return img
}

// WritePNG encodes the plot as a PNG.
func (p Plot) WritePNG(w io.Writer) error { return png.Encode(w, p.Render()) }

// NiceScale picks a tick step of 1, 2 or 5 times a power of ten giving about n ticks up to max,
// and the axis end: the first multiple of the step at or above max (at least one step).
func NiceScale(maxV float64, n int) (step, end float64) {
	if maxV <= 0 || math.IsNaN(maxV) || math.IsInf(maxV, 0) {
		return 1, 1
	}
	raw := maxV / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	end = math.Ceil(maxV/step-1e-9) * step
	return step, math.Max(end, step)
}

// FormatTick prints a tick value with as many decimals as the step needs.
func FormatTick(v, step float64) string {
	decimals := 0
	if step < 1 {
		decimals = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// line draws a straight line (Bresenham) with a square brush of width w.
func line(img *image.RGBA, xa, ya, xb, yb int, c color.Color, w int) {
	dx, dy := abs(xb-xa), -abs(yb-ya)
	sx, sy := sign(xb-xa), sign(yb-ya)
	e := dx + dy
	for {
		fillRect(img, xa-(w-1)/2, ya-(w-1)/2, w, w, c)
		if xa == xb && ya == yb {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			xa += sx
		} else {
			e += dx
			ya += sy
		}
	}
}

func marker(img *image.RGBA, x, y int, m Marker, c color.Color) {
	const r = 6
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			in := false
			switch m {
			case Square:
				in = abs(dx) <= r-1 && abs(dy) <= r-1
			case Disc:
				in = dx*dx+dy*dy <= r*r
			case Diamond:
				in = abs(dx)+abs(dy) <= r
			case Cross:
				in = abs(dx) <= 1 || abs(dy) <= 1
			}
			if in {
				fillRect(img, x+dx, y+dy, 1, 1, c)
			}
		}
	}
}

func rectOutline(img *image.RGBA, r image.Rectangle, c color.Color) {
	line(img, r.Min.X, r.Min.Y, r.Max.X, r.Min.Y, c, 1)
	line(img, r.Max.X, r.Min.Y, r.Max.X, r.Max.Y, c, 1)
	line(img, r.Max.X, r.Max.Y, r.Min.X, r.Max.Y, c, 1)
	line(img, r.Min.X, r.Max.Y, r.Min.X, r.Min.Y, c, 1)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// PlanTimePlot is the plot `make bench` writes: no-change plan time against fabric size for
// each variant, from the measurements that succeeded.
func PlanTimePlot(r Results) Plot {
	p := Plot{
		Title:  fmt.Sprintf("No-change terraform plan, %s lab latency", r.Latency),
		XLabel: "fabric size (resources)",
		YLabel: "plan time (s)",
		Width:  960, Height: 600,
	}
	markers := map[Variant]Marker{Defaults: Square, PerResource: Disc, Floor: Diamond, Noop: Cross,
		Map: Square, MapNoop: Cross, MapFloor: Diamond, Group: Square, GroupNoop: Cross, GroupFloor: Diamond}
	colours := map[Variant]color.RGBA{Defaults: Blue, PerResource: Red, Floor: Green, Noop: Amber,
		Map: Purple, MapNoop: Brown, MapFloor: Teal, Group: Olive, GroupNoop: Pink, GroupFloor: Grey}
	for _, v := range r.Requested() {
		s := Series{Name: v.Label(), Color: colours[v], Marker: markers[v]}
		for _, m := range r.Measurements {
			if m.Variant == v && m.Kind == NoChange && m.OK() {
				s.Points = append(s.Points, Point{X: float64(m.Resources), Y: m.Median().Seconds()})
			}
		}
		slices.SortFunc(s.Points, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
		p.Series = append(p.Series, s)
	}
	return p
}

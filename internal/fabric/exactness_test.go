package fabric

import (
	"math"
	"strings"
	"testing"
)

func TestWholeKilobytes(t *testing.T) {
	at := Root("classes").Key("roce").Attr("ecn").Attr("min_threshold_bytes")
	tests := []struct {
		bytes   int64
		ok      bool
		suggest []string // substrings the detail must contain
		absent  []string // substrings it must not contain
	}{
		{bytes: 153600, ok: true},
		{bytes: 0, ok: true},
		{bytes: 1024, ok: true},
		{bytes: 150000, suggest: []string{"149504 (146 kbytes)", "150528 (147 kbytes)"}},
		{bytes: 1536001, suggest: []string{"1536000 (1500 kbytes)", "1537024 (1501 kbytes)"}},
		{bytes: 1000, suggest: []string{"1024 (1 kbytes)"}, absent: []string{"0 (0 kbytes)", " or "}},
		{bytes: math.MaxInt64, suggest: []string{"9223372036854774784"}, absent: []string{" or "}},
	}
	for _, tt := range tests {
		p := WholeKilobytes(at, tt.bytes)
		if tt.ok {
			if p != nil {
				t.Errorf("WholeKilobytes(%d) = %v, want nil", tt.bytes, p)
			}
			continue
		}
		if p == nil {
			t.Errorf("WholeKilobytes(%d) = nil, want a problem", tt.bytes)
			continue
		}
		if got := p.Path.String(); got != `classes["roce"].ecn.min_threshold_bytes` {
			t.Errorf("path = %s", got)
		}
		if !strings.Contains(p.Summary, "kbytes") {
			t.Errorf("summary %q does not mention kbytes", p.Summary)
		}
		if !strings.Contains(p.Detail, "kbytes: multiples of 1024 bytes") {
			t.Errorf("detail %q does not name the granularity", p.Detail)
		}
		for _, s := range tt.suggest {
			if !strings.Contains(p.Detail, s) {
				t.Errorf("WholeKilobytes(%d) detail %q lacks %q", tt.bytes, p.Detail, s)
			}
		}
		for _, s := range tt.absent {
			if strings.Contains(p.Detail, s) {
				t.Errorf("WholeKilobytes(%d) detail %q contains %q", tt.bytes, p.Detail, s)
			}
		}
	}
}

func TestFloorDiv(t *testing.T) {
	for _, tt := range []struct{ a, b, want int64 }{{7, 2, 3}, {-7, 2, -4}, {-8, 2, -4}, {0, 3, 0}} {
		if got := floorDiv(tt.a, tt.b); got != tt.want {
			t.Errorf("floorDiv(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

package fabric

import (
	"fmt"
	"math"
	"strings"
)

// KiB is the unit of thresholds on platforms that configure them in kbytes (NX-OS, EOS).
const KiB = 1024

// WholeKilobytes returns a problem at path when bytes is not a whole number of kbytes
// (multiples of 1024 bytes), suggesting the nearest multiples below and above; nil otherwise.
// Platforms that cannot represent a value exactly refuse it at plan time instead of rounding.
func WholeKilobytes(path Path, bytes int64) *Problem {
	if bytes%KiB == 0 {
		return nil
	}
	lower := floorDiv(bytes, KiB) * KiB
	var options []string
	if lower > 0 {
		options = append(options, fmt.Sprintf("%d (%d kbytes)", lower, lower/KiB))
	}
	if lower <= math.MaxInt64-KiB {
		upper := lower + KiB
		options = append(options, fmt.Sprintf("%d (%d kbytes)", upper, upper/KiB))
	}
	return &Problem{
		Path:    path,
		Summary: fmt.Sprintf("%d bytes is not a whole number of kbytes", bytes),
		Detail: fmt.Sprintf("This platform sets the value in kbytes: multiples of 1024 bytes, and never rounds silently. Use %s.",
			strings.Join(options, " or ")),
	}
}

// floorDiv divides rounding towards negative infinity (Go's / truncates towards zero).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

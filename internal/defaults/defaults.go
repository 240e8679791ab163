// Package defaults fills in the documented defaults of option structs: in this
// module a zero or negative size, count or duration means "the default", so
// that a zero Options value is always valid.
package defaults

// Number is what Positive accepts: sizes, counts and durations.
type Number interface {
	~int | ~int32 | ~int64 | ~uint32 | ~float64
}

// Positive sets *v to def when *v is zero or negative, and leaves it otherwise.
func Positive[T Number](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

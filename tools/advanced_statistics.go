package tools

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/advstats"
)

// advancedStatsInput is advanced_statistics' arguments; which of them an
// operation needs is checked in Run (the schema bounds each).
type advancedStatsInput struct {
	Operation     string `json:"operation"`
	Data          []any  `json:"data"`
	X             []any  `json:"x"`
	Y             []any  `json:"y"`
	Probabilities []any  `json:"probabilities"`
	Method        string `json:"method"`
	Confidence    any    `json:"confidence"`
}

// advancedStatistics is advanced_statistics (issue 32): numpy's quantiles,
// scipy's linregress and correlations and the Student-t interval of the mean,
// exact on decimal data (internal/advstats).
func advancedStatistics() Tool {
	return Define(Def[advancedStatsInput, map[string]any]{
		Name:   "advanced_statistics",
		Run:    runAdvancedStats,
		Legacy: advancedStatsText,
	})
}

// numberFacts is the JSON form of an advstats.Number.
func numberFacts(n advstats.Number) map[string]any {
	m := map[string]any{"decimal": n.Decimal, "exact": n.Exact, "float": nil}
	if n.Float != nil {
		m["float"] = evidence.Float(*n.Float)
	}
	if n.Fraction != nil {
		m["fraction"] = *n.Fraction
	}
	return m
}

func runAdvancedStats(ctx context.Context, in advancedStatsInput) (map[string]any, []Warning, error) {
	need := func(ok bool, names string) error {
		if ok {
			return nil
		}
		return Fail("missing_argument", "%s needs %s", in.Operation, names)
	}
	facts := map[string]any{"operation": in.Operation, "digits": advstats.Digits}
	// An argument of another operation is refused, not ignored: a caller who
	// sends confidence with quantiles expects it to matter.
	given := map[string]bool{"data": in.Data != nil, "x": in.X != nil, "y": in.Y != nil,
		"probabilities": in.Probabilities != nil, "method": in.Method != "", "confidence": in.Confidence != nil}
	takes := map[string][]string{"quantiles": {"data", "probabilities", "method"}, "linear_regression": {"x", "y"},
		"correlation": {"x", "y", "method"}, "confidence_interval": {"data", "confidence"}}[in.Operation]
	for _, name := range []string{"data", "x", "y", "probabilities", "method", "confidence"} {
		if given[name] && takes != nil && !slices.Contains(takes, name) {
			return nil, nil, Fail("unexpected_argument", "%s takes no %s (it takes %s)", in.Operation, name, strings.Join(takes, ", "))
		}
	}
	switch in.Operation {
	case "quantiles":
		if err := need(in.Data != nil && in.Probabilities != nil, "data and probabilities"); err != nil {
			return nil, nil, err
		}
		method := in.Method
		if method == "" {
			method = "linear"
		}
		if !slices.Contains(advstats.Methods, method) {
			return nil, nil, Fail("unknown_method", "method %q is not a quantile method (%s)", method, strings.Join(advstats.Methods, ", "))
		}
		probs := make([]*big.Rat, len(in.Probabilities))
		for i, p := range in.Probabilities {
			r, err := advstats.ParseProbability(p, i)
			if err != nil {
				return nil, nil, err
			}
			probs[i] = r
		}
		data, err := advstats.ParseData(ctx, "data", in.Data)
		if err != nil {
			return nil, nil, err
		}
		qs, err := advstats.Quantiles(ctx, data, probs, method)
		if err != nil {
			return nil, nil, err
		}
		list := make([]any, len(qs))
		for i, q := range qs {
			list[i] = map[string]any{"probability": q.Probability, "value": numberFacts(q.Value)}
		}
		facts["method"], facts["n"], facts["quantiles"] = method, len(data), list
		return facts, nil, nil
	case "linear_regression", "correlation":
		if err := need(in.X != nil && in.Y != nil, "x and y"); err != nil {
			return nil, nil, err
		}
		method := in.Method
		if in.Operation == "correlation" {
			if method == "" {
				method = "pearson"
			}
			if !slices.Contains(advstats.CorrelationMethods, method) {
				return nil, nil, Fail("unknown_method", "method %q is not a correlation method (pearson, spearman, kendall)", method)
			}
		}
		x, err := advstats.ParseData(ctx, "x", in.X)
		if err != nil {
			return nil, nil, err
		}
		y, err := advstats.ParseData(ctx, "y", in.Y)
		if err != nil {
			return nil, nil, err
		}
		if in.Operation == "correlation" {
			c, err := advstats.Correlation(ctx, x, y, method)
			if err != nil {
				return nil, nil, err
			}
			facts["method"], facts["n"], facts["coefficient"] = method, len(x), numberFacts(c)
			return facts, nil, nil
		}
		r, err := advstats.LinearRegression(ctx, x, y)
		if err != nil {
			return nil, nil, err
		}
		facts["n"], facts["slope"], facts["intercept"] = r.N, numberFacts(r.Slope), numberFacts(r.Intercept)
		facts["r_squared"], facts["stderr"] = nil, nil
		var warnings []Warning
		if r.RSquared != nil {
			facts["r_squared"] = numberFacts(*r.RSquared)
		} else {
			warnings = append(warnings, Warning{Code: "r_squared_undefined",
				Message: "every y is equal: r_squared is undefined (scipy answers r = 0)"})
		}
		if r.Stderr != nil {
			facts["stderr"] = numberFacts(*r.Stderr)
		}
		return facts, warnings, nil
	case "confidence_interval":
		if err := need(in.Data != nil, "data"); err != nil {
			return nil, nil, err
		}
		var conf any = "0.95"
		if in.Confidence != nil {
			conf = in.Confidence
		}
		c, err := advstats.ParseConfidence(conf)
		if err != nil {
			return nil, nil, err
		}
		data, err := advstats.ParseData(ctx, "data", in.Data)
		if err != nil {
			return nil, nil, err
		}
		iv, err := advstats.ConfidenceInterval(ctx, data, c)
		if err != nil {
			return nil, nil, err
		}
		facts["n"], facts["confidence"], facts["df"] = len(data), iv.Confidence, iv.DF
		facts["mean"], facts["t"], facts["low"], facts["high"] = numberFacts(iv.Mean), numberFacts(iv.T), numberFacts(iv.Low), numberFacts(iv.High)
		return facts, nil, nil
	}
	return nil, nil, Fail("unknown_operation", "unknown operation %q", in.Operation)
}

// advancedStatsText is the legacy one-line answer: "=" before an exact
// decimal, "≈" before a rounded one.
func advancedStatsText(_ advancedStatsInput, f map[string]any) string {
	num := func(v any) string {
		m, ok := v.(map[string]any)
		if !ok {
			return "undefined"
		}
		d, _ := m["decimal"].(string)
		if e, _ := m["exact"].(bool); e {
			return "= " + d
		}
		return "≈ " + d
	}
	op, _ := f["operation"].(string)
	switch op {
	case "quantiles":
		list, _ := f["quantiles"].([]any)
		parts := make([]string, 0, len(list))
		for _, q := range list {
			m, _ := q.(map[string]any)
			p, _ := m["probability"].(string)
			parts = append(parts, "q("+p+") "+num(m["value"]))
		}
		return fmt.Sprintf("quantiles (%v, n=%v): %s", f["method"], f["n"], strings.Join(parts, "  |  "))
	case "linear_regression":
		return fmt.Sprintf("slope %s  |  intercept %s  |  r² %s  |  stderr %s  |  n=%v",
			num(f["slope"]), num(f["intercept"]), num(f["r_squared"]), num(f["stderr"]), f["n"])
	case "correlation":
		return fmt.Sprintf("%v correlation %s  |  n=%v", f["method"], num(f["coefficient"]), f["n"])
	case "confidence_interval":
		return fmt.Sprintf("%v confidence interval of the mean: low %s  |  high %s  |  mean %s  |  t %s  |  df=%v",
			f["confidence"], num(f["low"]), num(f["high"]), num(f["mean"]), num(f["t"]), f["df"])
	}
	return ""
}

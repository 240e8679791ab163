package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/calendar"
	"github.com/precisiond/precisiond/internal/tzdb"
	"github.com/precisiond/precisiond/internal/vectors"
)

func benchInvoke(b *testing.B, tool, args string) {
	b.Helper()
	v, err := evidence.ParseJSON([]byte(args))
	if err != nil {
		b.Fatal(err)
	}
	benchTool(b, tool, v.(map[string]any))
}

// Small inputs are ordinary calls; large ones take the longest path each tool
// has (extreme years, the widest spans, rule-based zone data after 2037,
// ambiguous times in a zone with many transitions).
func BenchmarkTimeTools(b *testing.B) {
	for _, bc := range []struct{ name, tool, args string }{
		{"calendar_facts/small", "calendar_facts", `{"date_str":"2026-07-29"}`},
		{"calendar_facts/large", "calendar_facts", `{"date_str":"9999-12-31","locale":"pl"}`},
		{"day_of_week/small", "day_of_week", `{"date_str":"2021-01-01"}`},
		{"day_of_week/large", "day_of_week", `{"date_str":"0001-01-01"}`},
		{"time_facts/small", "time_facts", `{"instant":"2026-07-29T12:00:00Z","timezone_name":"Europe/Berlin"}`},
		{"time_facts/large", "time_facts", `{"instant":"2100-10-03T15:45:00+13:45","timezone_name":"Australia/Lord_Howe","locale":"pt"}`},
		{"timezone_convert/small", "timezone_convert", `{"local_datetime":"2026-07-29T14:00:00","from_timezone":"Europe/Berlin","to_timezone":"UTC"}`},
		{"timezone_convert/large", "timezone_convert", `{"local_datetime":"2099-04-05T01:45:00","from_timezone":"Australia/Lord_Howe","to_timezone":"Pacific/Chatham","fold":1}`},
		{"date_diff/small", "date_diff", `{"date1":"2024-01-31","date2":"2024-03-01"}`},
		{"date_diff/large", "date_diff", `{"date1":"9999-12-31","date2":"0001-01-01"}`},
		{"date_add/small", "date_add", `{"base_date":"2024-01-31","months":1}`},
		{"date_add/large", "date_add", `{"base_date":"0001-01-01","years":9998,"months":11,"weeks":4,"days":2}`},
	} {
		b.Run(bc.name, func(b *testing.B) { benchInvoke(b, bc.tool, bc.args) })
	}
}

// newYearGrid is tools/testdata/timezone_convert/grid/newyear.json, written by
// tools/testdata/oracle/gen_time.py from Python's zoneinfo over the same tzdata.
type newYearGrid struct {
	Times []string `json:"times"`
	Cases []struct {
		Zone string               `json:"zone"`
		Runs [][3]json.RawMessage `json:"runs"`
	} `json:"cases"`
}

// gridToken is what zone answers for the wall time local in the grid's notation:
// the offset in seconds ("d" appended when DST is in effect), or gap, amb.
func gridToken(z *tzdb.Zone, local calendar.DateTime) string {
	r := z.Resolve(local.Seconds())
	switch r.Kind {
	case tzdb.Gap:
		return "gap"
	case tzdb.Ambiguous:
		return "amb"
	}
	o, _ := z.At(r.Instants[0])
	tok := strconv.FormatInt(local.Seconds()-r.Instants[0], 10)
	if o.IsDST {
		tok += "d"
	}
	return tok
}

// convertToken is gridToken through the tool's own function, calendar.Convert
// (which also applies the year limit: "range").
func convertToken(t *testing.T, local, zone string) string {
	f, err := calendar.Convert(local, zone, "UTC", nil, "en")
	switch {
	case errors.Is(err, calendar.ErrGap):
		return "gap"
	case errors.Is(err, calendar.ErrAmbiguous):
		return "amb"
	case errors.Is(err, calendar.ErrYearRange):
		return "range"
	case err != nil:
		return "error " + err.Error()
	}
	wall, err1 := calendar.ParseLocal(local)
	utc, err2 := calendar.ParseLocal(f.UTCInstant[:19])
	if err1 != nil || err2 != nil || f.UTCInstant[19:] != "+00:00" {
		t.Fatalf("%s %s: unreadable facts %+v", local, zone, f)
	}
	tok := strconv.FormatInt(wall.Seconds()-utc.Seconds(), 10)
	if f.SourceIsDST {
		tok += "d"
	}
	return tok
}

// Every zone's wall times from 31 December to 2 January, window years 2019 to
// 2100, convert as Python's zoneinfo converts them. Before the tzdb fix every
// such time in a leap year from 2040 on was refused as a DST gap. The grid is
// checked against the zone data's resolution (tzdb, where the bug was), each
// zone's 2040 and 2100 windows also through calendar.Convert (what the tool
// runs, with the year limit), and the first time of the 2040 window through the
// full execution path.
func TestTimezoneConvertNewYearGrid(t *testing.T) {
	var g newYearGrid
	vectors.Decode(t, "testdata/timezone_convert/grid/newyear.json", &g)
	if len(g.Cases) < 500 || len(g.Times) == 0 {
		t.Fatalf("grid has %d zones, %d times", len(g.Cases), len(g.Times))
	}
	reg := testRegistry(t)
	checked, full := 0, 0
	for _, c := range g.Cases {
		z, err := tzdb.Load(c.Zone)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range c.Runs {
			var y0, y1 int
			var line string
			if json.Unmarshal(run[0], &y0) != nil || json.Unmarshal(run[1], &y1) != nil || json.Unmarshal(run[2], &line) != nil {
				t.Fatalf("%s: bad run %s", c.Zone, run)
			}
			want := strings.Fields(line)
			for y := y0; y <= y1; y++ {
				days := []string{fmt.Sprintf("%d-12-31", y), fmt.Sprintf("%d-01-01", y+1), fmt.Sprintf("%d-01-02", y+1)}
				i := 0
				for _, d := range days {
					for _, tm := range g.Times {
						w := want[0]
						if len(want) > 1 {
							w = want[i]
						}
						i++
						local := d + "T" + tm
						var got string
						if y == 2040 || y == 2100 {
							got = convertToken(t, local, c.Zone)
						} else {
							wall, err := calendar.ParseLocal(local)
							if err != nil {
								t.Fatal(err)
							}
							got = gridToken(z, wall)
						}
						if got != w {
							t.Errorf("%s %s: got %s, want %s", c.Zone, local, got, w)
						}
						checked++
					}
				}
				if y == 2040 {
					local := days[0] + "T" + g.Times[0]
					resp, err := reg.Invoke(context.Background(), Request{Tool: "timezone_convert", Args: map[string]any{
						"local_datetime": local, "from_timezone": c.Zone, "to_timezone": "UTC"}})
					if err != nil || resp.Envelope.Facts()["input_local_datetime"] != local {
						t.Errorf("%s %s via the registry: %v", c.Zone, local, err)
					}
					full++
				}
			}
		}
	}
	if checked < 500000 || full < 500 {
		t.Fatalf("only %d grid times (%d through the registry) checked", checked, full)
	}
}

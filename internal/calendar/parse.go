package calendar

import "fmt"

// ParseDate parses exactly YYYY-MM-DD (ASCII digits) into a real date of years
// 1..9999. It returns ErrSyntax for any other shape ("today", "29.02.2024",
// "2024-2-1") and ErrInvalid/ErrRange for impossible fields (2023-02-29, 0000-01-01).
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, fmt.Errorf("%w: want YYYY-MM-DD", ErrSyntax)
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 {
		return Date{}, fmt.Errorf("%w: want YYYY-MM-DD", ErrSyntax)
	}
	return NewDate(y, m, d)
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// DateTime is a wall-clock date and time with whole seconds.
type DateTime struct {
	Date
	Hour, Minute, Second int
}

// String renders YYYY-MM-DDTHH:MM:SS.
func (t DateTime) String() string {
	return fmt.Sprintf("%sT%02d:%02d:%02d", t.Date, t.Hour, t.Minute, t.Second)
}

// Clock renders HH:MM:SS.
func (t DateTime) Clock() string { return fmt.Sprintf("%02d:%02d:%02d", t.Hour, t.Minute, t.Second) }

// Seconds is the number of seconds since 1970-01-01T00:00:00 of the same clock.
func (t DateTime) Seconds() int64 {
	return t.Days()*86400 + int64(t.Hour*3600+t.Minute*60+t.Second)
}

// DateTimeFromSeconds is the inverse of Seconds; ErrRange outside years 1..9999.
func DateTimeFromSeconds(s int64) (DateTime, error) {
	days := floorDiv(s, 86400)
	d, err := FromDays(days)
	if err != nil {
		return DateTime{}, err
	}
	r := int(s - days*86400)
	return DateTime{Date: d, Hour: r / 3600, Minute: r / 60 % 60, Second: r % 60}, nil
}

// ParseLocal parses a naive date-time, exactly YYYY-MM-DDTHH:MM:SS.
// Errors: ErrSyntax, ErrInvalid, ErrRange.
func ParseLocal(s string) (DateTime, error) {
	if len(s) != 19 || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return DateTime{}, fmt.Errorf("%w: want YYYY-MM-DDTHH:MM:SS", ErrSyntax)
	}
	d, err := ParseDate(s[:10])
	if err != nil {
		return DateTime{}, err
	}
	h, ok1 := digits(s[11:13])
	mi, ok2 := digits(s[14:16])
	se, ok3 := digits(s[17:19])
	if !ok1 || !ok2 || !ok3 {
		return DateTime{}, fmt.Errorf("%w: want YYYY-MM-DDTHH:MM:SS", ErrSyntax)
	}
	if h > 23 || mi > 59 || se > 59 {
		return DateTime{}, fmt.Errorf("%w: time %02d:%02d:%02d", ErrInvalid, h, mi, se)
	}
	return DateTime{Date: d, Hour: h, Minute: mi, Second: se}, nil
}

// ParseInstant parses YYYY-MM-DDTHH:MM:SS followed by Z or ±HH:MM. The offset
// is read as Python's datetime.fromisoformat reads it: HH hours plus MM minutes,
// each two digits, so MM may exceed 59 ("+05:99" is +06:39), and the total must
// lie strictly within ±24 hours. It returns the wall time as written and its
// offset in seconds east of UTC.
// Errors: ErrSyntax, ErrInvalid, ErrRange.
func ParseInstant(s string) (DateTime, int, error) {
	if len(s) < 20 {
		return DateTime{}, 0, fmt.Errorf("%w: want YYYY-MM-DDTHH:MM:SS followed by Z or ±HH:MM", ErrSyntax)
	}
	wall, err := ParseLocal(s[:19])
	if err != nil {
		return DateTime{}, 0, err
	}
	rest := s[19:]
	if rest == "Z" {
		return wall, 0, nil
	}
	if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
		return DateTime{}, 0, fmt.Errorf("%w: want Z or ±HH:MM after the time", ErrSyntax)
	}
	oh, ok1 := digits(rest[1:3])
	om, ok2 := digits(rest[4:6])
	if !ok1 || !ok2 {
		return DateTime{}, 0, fmt.Errorf("%w: want Z or ±HH:MM after the time", ErrSyntax)
	}
	if oh*3600+om*60 >= 86400 {
		return DateTime{}, 0, fmt.Errorf("%w: UTC offset %s is not strictly within 24 hours", ErrInvalid, rest)
	}
	off := oh*3600 + om*60
	if rest[0] == '-' {
		off = -off
	}
	return wall, off, nil
}

// FormatOffset renders a UTC offset as ±HH:MM, or ±HH:MM:SS when it has
// seconds (local mean time before 1900s standardisation), as Python's
// datetime.isoformat does. Zero is "+00:00".
func FormatOffset(sec int) string {
	sign := byte('+')
	if sec < 0 {
		sign = '-'
		sec = -sec
	}
	if sec%60 != 0 {
		return fmt.Sprintf("%c%02d:%02d:%02d", sign, sec/3600, sec/60%60, sec%60)
	}
	return fmt.Sprintf("%c%02d:%02d", sign, sec/3600, sec/60%60)
}

// OffsetHHMM renders a UTC offset as the reference sidecar writes its utc_offset
// facts: a sign ("+" for zero and east), then the whole hours and whole minutes
// of the offset's magnitude, dropping any seconds (so local mean time -0:44:30
// is "-00:44"). The exact offset remains in the ±HH:MM:SS of FormatOffset and
// in utc_offset_seconds.
func OffsetHHMM(sec int) string {
	sign := byte('+')
	if sec < 0 {
		sign = '-'
		sec = -sec
	}
	return fmt.Sprintf("%c%02d:%02d", sign, sec/3600, sec/60%60)
}

package blob

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseLocation(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Location
	}{
		{"", Location{Kind: "file", Dir: "data"}},
		{"file:./data", Location{Kind: "file", Dir: "data"}},
		{"file:/var/lib/precisiond", Location{Kind: "file", Dir: "/var/lib/precisiond"}},
		{"file:///var/lib/precisiond/", Location{Kind: "file", Dir: "/var/lib/precisiond"}},
		{"file:rel/../dir", Location{Kind: "file", Dir: "dir"}},
		{"file:.", Location{Kind: "file", Dir: "."}},
		{"s3://fleet", Location{Kind: "s3", Bucket: "fleet"}},
		{"s3://fleet/", Location{Kind: "s3", Bucket: "fleet"}},
		{"s3://fleet/prod", Location{Kind: "s3", Bucket: "fleet", Prefix: "prod/"}},
		{"s3://my.bucket-1/prod/eu-1/", Location{Kind: "s3", Bucket: "my.bucket-1", Prefix: "prod/eu-1/"}},
	} {
		got, err := ParseLocation(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseLocation(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"./data", "want file:DIR"},
		{"/data", "want file:DIR"},
		{"S3://fleet", "want file:DIR"},
		{"https://fleet.s3.amazonaws.com", "want file:DIR"},
		{"file:", "no directory"},
		{"file://host/dir", "file://HOST"},
		{"s3://", "not a valid S3 bucket name"},
		{"s3://ab", "not a valid S3 bucket name"},
		{"s3://Fleet", "not a valid S3 bucket name"},
		{"s3://fleet_1", "not a valid S3 bucket name"},
		{"s3://-fleet", "not a valid S3 bucket name"},
		{"s3://fleet..x", "not a valid S3 bucket name"},
		{"s3://192.168.1.1", "not a valid S3 bucket name"},
		{"s3://" + strings.Repeat("a", 64), "not a valid S3 bucket name"},
		{"s3://fleet//x", "prefix"},
		{"s3://fleet/a/../b", "prefix"},
		{"s3://fleet/.hidden", "prefix"},
		{"s3://fleet/with space", "prefix"},
		{"s3://key:secret@fleet/x", "credentials do not belong"},
		{"s3://fleet/x?region=eu", "no query"},
		{"file:/data\n", "control characters"},
	} {
		_, err := ParseLocation(c.in)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ParseLocation(%q): error %v, want one saying %q", c.in, err, c.msg)
		}
	}
}

// FuzzParseLocation: any value parses or fails without a panic, and what
// parses renders back to a value that parses to the same location.
func FuzzParseLocation(f *testing.F) {
	for _, s := range []string{"", "file:./data", "file:///x/", "file://h/x", "s3://fleet/prod", "s3://a.b-c/x/y/", "s3://x", "s3://fleet//", "file:/a/../../b", "s3://k@b/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		loc, err := ParseLocation(v)
		if err != nil {
			return
		}
		again, err := ParseLocation(loc.String())
		if err != nil || again != loc {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", v, loc, loc.String(), again, err)
		}
		if loc.Kind == "s3" && (loc.Prefix != "" && !strings.HasSuffix(loc.Prefix, "/") || strings.Contains(loc.String(), "@")) {
			t.Fatalf("%q: %+v", v, loc)
		}
	})
}

func TestValidKey(t *testing.T) {
	for _, k := range []string{"a", "toggles.json", "downloads/0123456789ab_report.v2.pdf", "A/b_c/d-e/f.g", "9", strings.Repeat("a", 255), strings.Repeat("a/", 255) + "a"} {
		if !ValidKey(k) {
			t.Errorf("ValidKey(%q) = false", k)
		}
	}
	for _, k := range []string{"", "/", "/a", "a/", "a//b", ".", "..", "a/..", "a/./b", ".hidden", "a/.x", "_a", "-a", "a b", "a\x00", "a\\b", "é", "a%2f", "a:b", strings.Repeat("a", 256), strings.Repeat("a/", 256) + "a"} {
		if ValidKey(k) {
			t.Errorf("ValidKey(%q) = true", k)
		}
	}
}

// FuzzValidKey: a valid key never escapes a directory or hides in it.
func FuzzValidKey(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "a/.b", "a//b", "ok.json"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if !ValidKey(k) {
			return
		}
		for _, seg := range strings.Split(k, "/") {
			if seg == "" || seg[0] == '.' || seg[0] == '-' || seg[0] == '_' || len(seg) > 255 {
				t.Fatalf("%q: segment %q", k, seg)
			}
		}
		if len(k) > MaxKeyLen || strings.ContainsAny(k, "\\\x00 %:") {
			t.Fatalf("%q accepted", k)
		}
	})
}

func TestS3ConfigFromEnv(t *testing.T) {
	loc := Location{Kind: "s3", Bucket: "fleet", Prefix: "prod/"}
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	creds := []string{"AWS_ACCESS_KEY_ID", "AKID", "AWS_SECRET_ACCESS_KEY", "SECRET"}

	cfg, err := S3ConfigFromEnv(loc, env(append(creds, "AWS_ENDPOINT_URL", "http://minio:9000", "AWS_SESSION_TOKEN", "TOKEN")...))
	if err != nil {
		t.Fatal(err)
	}
	want := S3Config{Endpoint: "http://minio:9000", AccessKey: "AKID", SecretKey: "SECRET", SessionToken: "TOKEN", Region: "us-east-1", PathStyle: true, Bucket: "fleet", Prefix: "prod/"}
	if cfg.Endpoint != want.Endpoint || cfg.AccessKey != want.AccessKey || cfg.SecretKey != want.SecretKey || cfg.SessionToken != want.SessionToken ||
		cfg.Region != want.Region || cfg.PathStyle != want.PathStyle || cfg.Bucket != want.Bucket || cfg.Prefix != want.Prefix {
		t.Errorf("with an endpoint: %+v, want %+v", cfg, want)
	}

	cfg, err = S3ConfigFromEnv(loc, env(append(creds, "AWS_DEFAULT_REGION", "eu-central-1")...))
	if err != nil || cfg.Endpoint != "https://s3.eu-central-1.amazonaws.com" || cfg.PathStyle || cfg.Region != "eu-central-1" {
		t.Errorf("AWS: %+v, %v", cfg, err)
	}
	cfg, err = S3ConfigFromEnv(loc, env(append(creds, "AWS_REGION", "eu-west-3", "AWS_DEFAULT_REGION", "eu-central-1",
		"AWS_ENDPOINT_URL", "http://general:1", "AWS_ENDPOINT_URL_S3", "https://s3only:2")...))
	if err != nil || cfg.Endpoint != "https://s3only:2" || cfg.Region != "eu-west-3" {
		t.Errorf("precedence: %+v, %v", cfg, err)
	}

	for _, c := range []struct {
		env []string
		msg string
	}{
		{nil, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"},
		{[]string{"AWS_ACCESS_KEY_ID", "AKID"}, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"},
		{append(creds, "AWS_ENDPOINT_URL", "minio:9000"), "want http://HOST"},
		{append(creds, "AWS_ENDPOINT_URL", "http://minio:9000/path"), "without a path"},
		{append(creds, "AWS_ENDPOINT_URL", "http://user:pw@minio:9000"), "without a path, query or credentials"},
	} {
		_, err := S3ConfigFromEnv(loc, env(c.env...))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("env %q: error %v, want one saying %q", c.env, err, c.msg)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") && !strings.Contains(err.Error(), "AWS_SECRET") {
			t.Errorf("the secret leaked into %v", err)
		}
	}
	if _, err := S3ConfigFromEnv(Location{Kind: "file", Dir: "x"}, env(creds...)); err == nil {
		t.Error("a file location configured S3")
	}
}

func TestOpenLocations(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Location{Kind: "file", Dir: dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind() != "file" || s.Location() != "file:"+dir {
		t.Errorf("file store: kind %s, location %s", s.Kind(), s.Location())
	}
	_ = s.Close()
	// Opening an S3 store does not contact the server: it works while nothing
	// listens, so a fleet starts with its store down.
	env := map[string]string{"AWS_ENDPOINT_URL": "http://" + closedAddr(t), "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"}
	s, err = Open(Location{Kind: "s3", Bucket: "fleet", Prefix: "p/"}, Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind() != "s3" || s.Location() != "s3://fleet/p/" {
		t.Errorf("s3 store: kind %s, location %s", s.Kind(), s.Location())
	}
	_ = s.Close()
	if _, err := Open(Location{}, Options{}); err == nil {
		t.Error("a zero Location opened")
	}
}

func TestHealthJSON(t *testing.T) {
	for _, c := range []struct {
		h    Health
		want string
	}{
		{Health{Kind: "s3", OK: true}, `{"kind":"s3","ok":true}`},
		{Health{Kind: "file", Reason: "store_unavailable", Err: ErrUnavailable}, `{"kind":"file","ok":false,"reason":"store_unavailable"}`},
	} {
		b, err := json.Marshal(c.h)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v: %s, want %s", c.h, b, c.want)
		}
	}
}

func TestParseContentRange(t *testing.T) {
	for _, c := range []struct {
		in                 string
		first, last, total int64
		ok                 bool
	}{
		{"bytes 0-0/1", 0, 0, 1, true},
		{"bytes 10-109/1000", 10, 109, 1000, true},
		{"bytes 10-109/*", 0, 0, 0, false},
		{"bytes 10-9/1000", 0, 0, 0, false},
		{"bytes 0-1000/1000", 0, 0, 0, false},
		{"items 0-1/2", 0, 0, 0, false},
		{"bytes -1-2/3", 0, 0, 0, false},
	} {
		f, l, tot, ok := parseContentRange(c.in)
		if ok != c.ok || ok && (f != c.first || l != c.last || tot != c.total) {
			t.Errorf("%q: %d %d %d %v", c.in, f, l, tot, ok)
		}
	}
}

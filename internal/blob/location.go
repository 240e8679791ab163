package blob

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
)

// DefaultLocation is the --store value when none is given: a directory next to
// the process, as a single instance has always kept its data.
const DefaultLocation = "file:./data"

// Location is a parsed --store value: "file:DIR" or "s3://BUCKET/PREFIX".
type Location struct {
	Kind   string // "file" or "s3"
	Dir    string // file: the directory, cleaned (relative stays relative)
	Bucket string // s3
	Prefix string // s3: "" or a key prefix ending in '/'
}

// String renders the location as a --store value; ParseLocation(l.String())
// gives l back.
func (l Location) String() string {
	if l.Kind == "s3" {
		return "s3://" + l.Bucket + "/" + l.Prefix
	}
	return "file:" + l.Dir
}

// ParseLocation parses a --store value (PRECISIOND_STORE):
//
//   - "file:DIR" or "file:///ABS/DIR": a directory, created if missing;
//   - "s3://BUCKET" or "s3://BUCKET/PREFIX": keys under PREFIX/ in BUCKET;
//     the server and credentials come from the AWS variables (S3ConfigFromEnv),
//     never from the value itself;
//   - "" : DefaultLocation.
//
// Anything else is an error that says what is expected.
func ParseLocation(v string) (Location, error) {
	if v == "" {
		v = DefaultLocation
	}
	if strings.ContainsAny(v, "\x00\r\n") {
		return Location{}, fmt.Errorf("store %q: control characters are not allowed", v)
	}
	switch {
	case strings.HasPrefix(v, "file:"):
		dir := strings.TrimPrefix(v, "file:")
		if strings.HasPrefix(dir, "//") {
			host, p, _ := strings.Cut(dir[2:], "/")
			if host != "" {
				return Location{}, fmt.Errorf("store %q: file://HOST/... is not supported; write file:/absolute/dir or file:relative/dir", v)
			}
			dir = "/" + p
		}
		if dir == "" {
			return Location{}, fmt.Errorf("store %q: no directory after file: (e.g. %s)", v, DefaultLocation)
		}
		return Location{Kind: "file", Dir: filepath.Clean(dir)}, nil
	case strings.HasPrefix(v, "s3://"):
		rest := strings.TrimPrefix(v, "s3://")
		if strings.ContainsAny(rest, "?#") {
			return Location{}, fmt.Errorf("store %q: s3://BUCKET/PREFIX takes no query or fragment; settings come from the AWS_* variables", v)
		}
		if strings.Contains(rest, "@") {
			return Location{}, fmt.Errorf("store %q: credentials do not belong in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", v)
		}
		bucket, prefix, _ := strings.Cut(rest, "/")
		if !validBucket(bucket) {
			return Location{}, fmt.Errorf("store %q: bucket %q is not a valid S3 bucket name (3-63 characters: lowercase letters, digits, '.', '-'; starting and ending with a letter or digit)", v, bucket)
		}
		prefix = strings.TrimSuffix(prefix, "/")
		if prefix != "" {
			if !ValidKey(prefix) {
				return Location{}, fmt.Errorf("store %q: prefix %q: segments of letters, digits, '.', '_', '-' starting with a letter or digit, separated by single '/'", v, prefix)
			}
			prefix += "/"
		}
		return Location{Kind: "s3", Bucket: bucket, Prefix: prefix}, nil
	}
	return Location{}, fmt.Errorf("store %q: want file:DIR (default %s) or s3://BUCKET/PREFIX", v, DefaultLocation)
}

// validBucket follows the S3 bucket naming rules.
func validBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '.' && c != '-' || i == 0 || i == len(b)-1) {
			return false
		}
	}
	if strings.Contains(b, "..") || strings.Contains(b, ".-") || strings.Contains(b, "-.") {
		return false
	}
	if _, err := netip.ParseAddr(b); err == nil {
		return false
	}
	return true
}

// S3ConfigFromEnv configures an S3 store for loc from the standard AWS
// variables (getenv is os.Getenv when nil):
//
//   - AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL: the server of an S3-compatible
//     store (http://minio:9000); buckets are then addressed in the path. Without
//     it, AWS S3 in the region, with virtual-host addressing.
//   - AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (required), AWS_SESSION_TOKEN.
//   - AWS_REGION or AWS_DEFAULT_REGION (default us-east-1).
func S3ConfigFromEnv(loc Location, getenv func(string) string) (S3Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if loc.Kind != "s3" {
		return S3Config{}, fmt.Errorf("store %s is not an s3:// location", loc)
	}
	cfg := S3Config{
		Bucket:       loc.Bucket,
		Prefix:       loc.Prefix,
		AccessKey:    getenv("AWS_ACCESS_KEY_ID"),
		SecretKey:    getenv("AWS_SECRET_ACCESS_KEY"),
		SessionToken: getenv("AWS_SESSION_TOKEN"),
		Region:       firstNonEmpty(getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"), "us-east-1"),
	}
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return S3Config{}, fmt.Errorf("store %s: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", loc)
	}
	if ep := firstNonEmpty(getenv("AWS_ENDPOINT_URL_S3"), getenv("AWS_ENDPOINT_URL")); ep != "" {
		if _, _, err := parseEndpoint(ep); err != nil {
			return S3Config{}, fmt.Errorf("store %s: AWS_ENDPOINT_URL: %w", loc, err)
		}
		cfg.Endpoint, cfg.PathStyle = ep, true
	} else {
		cfg.Endpoint = "https://s3." + cfg.Region + ".amazonaws.com"
	}
	return cfg, nil
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// Options are the settings of Open besides the location.
type Options struct {
	// Getenv reads the AWS variables of an s3:// location (default os.Getenv).
	Getenv func(string) string
	// Timeouts of an S3 store (zero fields take the defaults).
	Timeouts Timeouts
	// SkipTempCleanup leaves a directory store's orphaned temporary files
	// alone at Open (a worker process opening its server's store: the server
	// removes and counts them).
	SkipTempCleanup bool
	// CreateOnWrite leaves a missing directory (file:) missing until the
	// first Put creates it; until then the store reads as empty. A process
	// that stores nothing then writes nothing (precisiond call, mcp).
	CreateOnWrite bool
}

// Open opens the store at loc. It touches neither the network nor, for S3, the
// bucket: Ping tells whether the store answers.
func Open(loc Location, opts Options) (Store, error) {
	switch loc.Kind {
	case "file":
		if opts.CreateOnWrite {
			return &lazyDir{dir: loc.Dir, cleanup: !opts.SkipTempCleanup}, nil
		}
		return openDirStore(loc.Dir, !opts.SkipTempCleanup)
	case "s3":
		cfg, err := S3ConfigFromEnv(loc, opts.Getenv)
		if err != nil {
			return nil, err
		}
		cfg.Timeouts = opts.Timeouts
		return OpenS3(cfg)
	}
	return nil, errors.New("blob: location has no kind (use ParseLocation)")
}

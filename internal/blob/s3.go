package blob

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/precisiond/precisiond/internal/defaults"
)

// Timeouts bound how long an S3 store waits before it reports ErrUnavailable.
// Zero fields take the defaults.
type Timeouts struct {
	// Op bounds a whole small operation (Stat, Delete, Ping, a Put of up to 1 MiB)
	// and the wait for the response headers of any request (Get, each List page).
	// A Put gets one more second per MiB of data. Default 5 s.
	Op time.Duration
	// Dial bounds opening a connection. Default 2 s.
	Dial time.Duration
	// IO bounds a pause in a transfer on an open connection (a server that stops
	// sending the rest of an object, or stops reading an upload). Default 10 s.
	IO time.Duration
}

// Defaults of Timeouts.
const (
	DefaultOpTimeout   = 5 * time.Second
	DefaultDialTimeout = 2 * time.Second
	DefaultIOTimeout   = 10 * time.Second
)

func (t Timeouts) withDefaults() Timeouts {
	defaults.Positive(&t.Op, DefaultOpTimeout)
	defaults.Positive(&t.Dial, DefaultDialTimeout)
	defaults.Positive(&t.IO, DefaultIOTimeout)
	return t
}

// S3Config configures an S3 store. S3ConfigFromEnv fills it from a Location and
// the AWS variables.
type S3Config struct {
	// Endpoint is the server's base URL, "http://host:port" or "https://host".
	Endpoint     string
	AccessKey    string
	SecretKey    string
	SessionToken string // optional (temporary credentials)
	Region       string
	// PathStyle addresses the bucket in the path (http://host/BUCKET/KEY), as
	// S3-compatible servers expect; otherwise as a virtual host (AWS).
	PathStyle bool
	Bucket    string
	// Prefix is prepended to every key: "" or ending in '/'.
	Prefix   string
	Timeouts Timeouts
	// TLSConfig, when not nil, replaces the default TLS settings (a private CA).
	TLSConfig *tls.Config
}

// S3Store is a Store in an S3 bucket, under a key prefix. Conditional writes use
// the If-Match and If-None-Match headers of PutObject, which the server must
// enforce atomically (AWS S3 since 2024, MinIO, Versity Gateway); requests are
// never retried, so a write's lost response cannot turn into a false "lost
// race".
type S3Store struct {
	cfg  S3Config
	core minio.Core
	tr   *http.Transport
}

var _ Store = (*S3Store)(nil)

// maxS3Put is the largest single PutObject S3 accepts.
const maxS3Put = 5 << 30

// OpenS3 returns a store for cfg. It does not contact the server (a store that
// is down must not stop the service from starting); Ping does.
func OpenS3(cfg S3Config) (*S3Store, error) {
	cfg.Timeouts = cfg.Timeouts.withDefaults()
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	if !validBucket(cfg.Bucket) {
		return nil, newErr("open", "", nil, fmt.Errorf("invalid bucket name %q", cfg.Bucket))
	}
	if cfg.Prefix != "" && (!strings.HasSuffix(cfg.Prefix, "/") || !ValidKey(strings.TrimSuffix(cfg.Prefix, "/"))) {
		return nil, newErr("open", "", nil, fmt.Errorf("invalid key prefix %q", cfg.Prefix))
	}
	host, secure, err := parseEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, newErr("open", "", nil, err)
	}
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, newErr("open", "", nil, errors.New("no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"))
	}
	tr := newTransport(cfg.Timeouts, cfg.TLSConfig)
	lookup := minio.BucketLookupDNS
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	c, err := minio.New(host, &minio.Options{
		Creds:        credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.SessionToken),
		Secure:       secure,
		Region:       cfg.Region, // known: no bucket-location request before the first call
		BucketLookup: lookup,
		Transport:    tr,
		// One attempt: a retried conditional write whose first attempt landed
		// would fail its own precondition, and retries would stretch the time
		// to report an unreachable store.
		MaxRetries: 1,
	})
	if err != nil {
		tr.CloseIdleConnections()
		return nil, newErr("open", "", nil, err)
	}
	return &S3Store{cfg: cfg, core: minio.Core{Client: c}, tr: tr}, nil
}

// parseEndpoint turns "http://host:port" into minio-go's host and secure flag.
func parseEndpoint(endpoint string) (host string, secure bool, err error) {
	rest, ok := strings.CutPrefix(endpoint, "https://")
	secure = ok
	if !ok {
		if rest, ok = strings.CutPrefix(endpoint, "http://"); !ok {
			return "", false, fmt.Errorf("endpoint %q: want http://HOST[:PORT] or https://HOST[:PORT]", endpoint)
		}
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" || strings.ContainsAny(rest, "/?#@ ") {
		return "", false, fmt.Errorf("endpoint %q: want http(s)://HOST[:PORT] without a path, query or credentials", endpoint)
	}
	return rest, secure, nil
}

// newTransport is an http.Transport whose every wait is bounded: connecting,
// the TLS handshake, the response headers, and every pause in a transfer (the
// connection's read and write deadlines move forward with each read or write).
func newTransport(t Timeouts, tlsConf *tls.Config) *http.Transport {
	d := &net.Dialer{Timeout: t.Dial, KeepAlive: 30 * time.Second}
	if tlsConf == nil {
		tlsConf = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &stallConn{Conn: c, timeout: t.IO}, nil
		},
		TLSClientConfig:       tlsConf,
		TLSHandshakeTimeout:   t.Dial,
		ResponseHeaderTimeout: t.Op,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       t.IO,
		MaxIdleConnsPerHost:   16,
		// Compression would break Range reads and Content-Length checks.
		DisableCompression: true,
	}
}

// stallConn fails a read or write that makes no progress for timeout. A write
// also moves the read deadline: a request just sent expects its answer within
// the timeout, even on a kept-alive connection whose idle read started earlier.
type stallConn struct {
	net.Conn
	timeout time.Duration
}

func (c *stallConn) Read(p []byte) (int, error) {
	_ = c.Conn.SetReadDeadline(time.Now().Add(c.timeout))
	return c.Conn.Read(p)
}

func (c *stallConn) Write(p []byte) (int, error) {
	d := time.Now().Add(c.timeout)
	_ = c.Conn.SetWriteDeadline(d)
	_ = c.Conn.SetReadDeadline(d)
	return c.Conn.Write(p)
}

// Kind returns "s3".
func (s *S3Store) Kind() string { return "s3" }

// Location returns "s3://BUCKET/PREFIX".
func (s *S3Store) Location() string {
	return Location{Kind: "s3", Bucket: s.cfg.Bucket, Prefix: s.cfg.Prefix}.String()
}

// Close drops idle connections.
func (s *S3Store) Close() error {
	s.tr.CloseIdleConnections()
	return nil
}

func (s *S3Store) name(key string) string { return s.cfg.Prefix + key }

// Put uploads data in one PutObject with its MD5 and SHA-256 (the server
// verifies both) and the condition as If-Match / If-None-Match: *.
func (s *S3Store) Put(ctx context.Context, key string, data []byte, opts PutOptions) (Info, error) {
	if err := checkPut(key, opts); err != nil {
		return Info{}, err
	}
	if int64(len(data)) > maxS3Put {
		return Info{}, newErr("put", key, nil, fmt.Errorf("%d bytes: larger than one S3 PutObject (5 GiB)", len(data)))
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeouts.Op+time.Duration(len(data)>>20)*time.Second)
	defer cancel()
	var po minio.PutObjectOptions
	switch {
	case opts.IfMatch != "":
		po.SetMatchETag(opts.IfMatch)
	case opts.IfNoneMatch:
		po.SetMatchETagExcept("*")
	}
	po.DisableMultipart = true
	md5sum := md5.Sum(data)
	shasum := sha256.Sum256(data)
	shaHex := hex.EncodeToString(shasum[:])
	po.UserMetadata = map[string]string{sha256Meta: shaHex}
	up, err := s.core.PutObject(ctx, s.cfg.Bucket, s.name(key), bytes.NewReader(data), int64(len(data)),
		base64.StdEncoding.EncodeToString(md5sum[:]), shaHex, po)
	if err != nil {
		return Info{}, s3Err(ctx, "put", key, err)
	}
	return Info{Key: key, Size: int64(len(data)), ETag: strings.Trim(up.ETag, `"`), SHA256: shaHex}, nil
}

// sha256Meta is the user metadata (x-amz-meta-sha256) holding an object's
// SHA-256 in hex.
const sha256Meta = "sha256"

// objectInfo converts minio-go's ObjectInfo, taking the SHA-256 from the user
// metadata when it is a well-formed digest.
func objectInfo(key string, oi minio.ObjectInfo) Info {
	info := Info{Key: key, Size: oi.Size, ETag: oi.ETag, ModTime: oi.LastModified}
	for k, v := range oi.UserMetadata {
		if strings.EqualFold(k, sha256Meta) && isHexSHA256(v) {
			info.SHA256 = v
		}
	}
	return info
}

func isHexSHA256(v string) bool {
	if len(v) != 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Stat is a HEAD request.
func (s *S3Store) Stat(ctx context.Context, key string) (Info, error) {
	if !ValidKey(key) {
		return Info{}, newErr("stat", key, ErrInvalidKey, nil)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeouts.Op)
	defer cancel()
	oi, err := s.core.StatObject(ctx, s.cfg.Bucket, s.name(key), minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s3Err(ctx, "stat", key, err)
	}
	return objectInfo(key, oi), nil
}

// Get is one GET request, with a Range header for a range and the conditions
// as If-Match / If-None-Match. The body streams as the caller reads.
func (s *S3Store) Get(ctx context.Context, key string, opts GetOptions) (*Object, error) {
	if err := checkGet(key, opts); err != nil {
		return nil, err
	}
	var g minio.GetObjectOptions
	if r := opts.Range; r != nil && (r.Offset > 0 || r.Length >= 0) {
		if r.Length < 0 {
			g.Set("Range", "bytes="+strconv.FormatInt(r.Offset, 10)+"-")
		} else {
			g.Set("Range", "bytes="+strconv.FormatInt(r.Offset, 10)+"-"+strconv.FormatInt(r.Offset+r.Length-1, 10))
		}
	}
	if opts.IfMatch != "" {
		_ = g.SetMatchETag(opts.IfMatch) // not empty: cannot fail
	}
	if opts.IfNoneMatch != "" {
		_ = g.SetMatchETagExcept(opts.IfNoneMatch)
	}
	body, oi, hdr, err := s.core.GetObject(ctx, s.cfg.Bucket, s.name(key), g)
	if err != nil {
		return nil, s3Err(ctx, "get", key, err)
	}
	obj := &Object{
		Info:  objectInfo(key, oi),
		ctx:   ctx,
		body:  body,
		close: body.Close,
		wrap:  func(err error) error { return s3Err(ctx, "read", key, err) },
	}
	obj.Length = oi.Size
	if cr := hdr.Get("Content-Range"); cr != "" {
		first, last, total, ok := parseContentRange(cr)
		if !ok {
			_ = body.Close()
			return nil, newErr("get", key, nil, fmt.Errorf("malformed Content-Range %q", cr))
		}
		obj.Offset, obj.Length, obj.Size = first, last-first+1, total
	} else if r := opts.Range; r != nil {
		// A server that ignores Range sends the whole object: usable from 0.
		if r.Offset > 0 {
			_ = body.Close()
			return nil, newErr("get", key, nil, errors.New("the server ignored the Range header"))
		}
		if r.Length >= 0 && r.Length < obj.Length {
			obj.Length = r.Length
		}
	}
	return obj, nil
}

// parseContentRange parses "bytes FIRST-LAST/TOTAL".
func parseContentRange(v string) (first, last, total int64, ok bool) {
	rest, ok := strings.CutPrefix(v, "bytes ")
	if !ok {
		return 0, 0, 0, false
	}
	rng, tot, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, 0, false
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return 0, 0, 0, false
	}
	var err1, err2, err3 error
	first, err1 = strconv.ParseInt(a, 10, 64)
	last, err2 = strconv.ParseInt(b, 10, 64)
	total, err3 = strconv.ParseInt(tot, 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || first < 0 || last < first || total <= last {
		return 0, 0, 0, false
	}
	return first, last, total, true
}

// Delete is a DeleteObject request. S3 answers success for a missing key, but
// a compatible server may answer NoSuchKey when another client deleted the
// object a moment before (Versity Gateway does, under two janitors): that is
// success too, as the Store contract says.
func (s *S3Store) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return newErr("delete", key, ErrInvalidKey, nil)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeouts.Op)
	defer cancel()
	if err := s.core.RemoveObject(ctx, s.cfg.Bucket, s.name(key), minio.RemoveObjectOptions{}); err != nil {
		if err := s3Err(ctx, "delete", key, err); !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return nil
}

// List pages through ListObjectsV2. Keys outside the key syntax (objects other
// programs put under the prefix) are skipped.
func (s *S3Store) List(ctx context.Context, prefix string, fn func(Info) error) error {
	if !validPrefix(prefix) {
		return newErr("list", prefix, ErrInvalidKey, nil)
	}
	for oi := range s.core.ListObjectsIter(ctx, s.cfg.Bucket, minio.ListObjectsOptions{Prefix: s.name(prefix), Recursive: true}) {
		if oi.Err != nil {
			return s3Err(ctx, "list", prefix, oi.Err)
		}
		key, ok := strings.CutPrefix(oi.Key, s.cfg.Prefix)
		if !ok || !ValidKey(key) {
			continue
		}
		if err := fn(Info{Key: key, Size: oi.Size, ETag: oi.ETag, ModTime: oi.LastModified}); err != nil {
			return err
		}
	}
	return nil
}

// Ping is a HEAD request on the bucket.
func (s *S3Store) Ping(ctx context.Context) Health {
	h := Health{Kind: "s3"}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeouts.Op)
	defer cancel()
	ok, err := s.core.BucketExists(ctx, s.cfg.Bucket)
	switch {
	case err != nil:
		h.Err = s3Err(ctx, "ping", "", err)
		h.Reason = "store_error"
		if errors.Is(h.Err, ErrUnavailable) {
			h.Reason = "store_unavailable"
		}
	case !ok:
		h.Reason, h.Err = "store_error", newErr("ping", "", nil, fmt.Errorf("bucket %q does not exist", s.cfg.Bucket))
	default:
		h.OK = true
	}
	return h
}

// s3Err classifies an error of minio-go. An answer from the server maps by its
// status; no answer at all (refused, reset, timed out) is ErrUnavailable, except
// a certificate the client refuses (a configuration error) and a cancellation
// by the caller.
func s3Err(ctx context.Context, op, key string, err error) error {
	if resp := minio.ToErrorResponse(err); resp.StatusCode != 0 {
		var kind error
		switch st := resp.StatusCode; {
		case st == http.StatusNotFound && resp.Code == minio.NoSuchBucket:
			err = fmt.Errorf("bucket %q does not exist", resp.BucketName)
		case st == http.StatusNotFound:
			kind = ErrNotFound
		case st == http.StatusPreconditionFailed, st == http.StatusConflict && resp.Code == "ConditionalRequestConflict":
			kind = ErrPreconditionFailed
		case st == http.StatusNotModified:
			kind = ErrNotModified
		case st == http.StatusRequestedRangeNotSatisfiable:
			kind = ErrInvalidRange
		case st == http.StatusNotImplemented:
			err = fmt.Errorf("the S3 server does not implement this request (conditional writes need If-Match / If-None-Match support): %w", err)
		case st >= 500:
			kind = ErrUnavailable
		}
		if kind != nil {
			return newErr(op, key, kind, nil)
		}
		return newErr(op, key, nil, err)
	}
	var (
		certErr  *tls.CertificateVerificationError
		authErr  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		invalErr x509.CertificateInvalidError
		netErr   net.Error
	)
	switch {
	case errors.As(err, &certErr), errors.As(err, &authErr), errors.As(err, &hostErr), errors.As(err, &invalErr):
		return newErr(op, key, nil, err)
	case errors.Is(err, context.Canceled) && !errors.Is(ctx.Err(), context.DeadlineExceeded):
		return newErr(op, key, nil, err)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return newErr(op, key, ErrUnavailable, err)
	}
	return newErr(op, key, nil, err)
}

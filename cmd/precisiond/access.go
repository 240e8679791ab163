package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/cli"
	"github.com/precisiond/precisiond/internal/fleetkey"
)

// AccessConfig is the access-control part of Config (docs/operations.md,
// "Access control").
type AccessConfig struct {
	APITokens          string   // tokens file; empty: no API tokens
	MetricsNeedToken   bool     // /metrics behind the API tokens too
	InsecureNoAuth     bool     // allow a non-loopback address without tokens
	DownloadSigningKey string   // HMAC key of download links; empty: generated in the data dir
	CORSOrigins        []string // browser origins allowed cross-origin
	TLSCert, TLSKey    string   // PEM files; both set: serve HTTPS
	// OAuth resource server (docs/oauth.md); OAuthIssuer empty: off.
	OAuthIssuer, OAuthResource, OAuthIntrospectionURL, OAuthClientFile string
	OAuthDefaultScopes                                                 []string
}

// accessFlags are the access-control settings, at the end of configFlags.
var accessFlags = []setting{
	set("api-tokens", "PRECISIOND_API_TOKENS", "FILE", "", "JSON file of API tokens {\"tokens\":[{\"name\",\"sha256\",\"tools\"?,\"rate_per_minute\"?}]}; every tool surface then needs Authorization: Bearer (re-read on SIGHUP and on change)", func(c *Config) any { return &c.Access.APITokens }),
	set("metrics-auth", "PRECISIOND_METRICS_AUTH", "", "false", "with --api-tokens, /metrics needs an API token too", func(c *Config) any { return &c.Access.MetricsNeedToken }),
	set("insecure-no-auth", "PRECISIOND_INSECURE_NO_AUTH", "", "false", "allow listening on a non-loopback address without --api-tokens (only behind something that authenticates)", func(c *Config) any { return &c.Access.InsecureNoAuth }),
	set("download-signing-key", "PRECISIOND_DOWNLOAD_SIGNING_KEY", "KEY", "", "HMAC key (at least 16 bytes) of signed download links; empty: generated once in DATA_DIR/"+access.KeyFileName, func(c *Config) any { return &c.Access.DownloadSigningKey }),
	set("cors-origins", "PRECISIOND_CORS_ORIGINS", "ORIGINS", "", "comma-separated browser origins (https://app.example) allowed to call the API cross-origin, \"*\" for any; empty: CORS off", func(c *Config) any { return &c.Access.CORSOrigins }),
	set("tls-cert", "PRECISIOND_TLS_CERT", "FILE", "", "PEM certificate (chain) to serve HTTPS; with --tls-key; reloaded on SIGHUP", func(c *Config) any { return &c.Access.TLSCert }),
	set("tls-key", "PRECISIOND_TLS_KEY", "FILE", "", "PEM private key of --tls-cert", func(c *Config) any { return &c.Access.TLSKey }),
	set("oauth-issuer", "PRECISIOND_OAUTH_ISSUER", "URL", "", "turn on the OAuth 2.1 resource server: OAuth access tokens from this https issuer are accepted beside --api-tokens, and /.well-known/oauth-protected-resource is served (docs/oauth.md); empty: off", func(c *Config) any { return &c.Access.OAuthIssuer }),
	set("oauth-resource", "PRECISIOND_OAUTH_RESOURCE", "URL", "", "the resource identifier JWT access tokens must name in aud (RFC 8707); empty: --public-base-url + /mcp", func(c *Config) any { return &c.Access.OAuthResource }),
	set("oauth-introspection-url", "PRECISIOND_OAUTH_INTROSPECTION_URL", "URL", "", "RFC 7662 endpoint that checks opaque access tokens (needs --oauth-client-file); empty: the issuer's introspection_endpoint when --oauth-client-file is set", func(c *Config) any { return &c.Access.OAuthIntrospectionURL }),
	set("oauth-client-file", "PRECISIOND_OAUTH_CLIENT_FILE", "FILE", "", "JSON file {\"client_id\",\"client_secret\"}: the credentials precisiond introspects tokens with", func(c *Config) any { return &c.Access.OAuthClientFile }),
	set("oauth-default-scopes", "PRECISIOND_OAUTH_DEFAULT_SCOPES", "SCOPES", "", "comma-separated scopes granted to every valid OAuth token besides its own (precisiond:tools, precisiond:tool:<name>, precisiond:admin), for issuers that cannot issue custom scopes", func(c *Config) any { return &c.Access.OAuthDefaultScopes }),
}

// checkExposure refuses a non-loopback address without API tokens unless
// --insecure-no-auth says so explicitly (access.CheckExposure).
func checkExposure(cfg Config) error {
	a := cfg.Access
	if (a.TLSCert == "") != (a.TLSKey == "") {
		return fmt.Errorf("--tls-cert and --tls-key go together")
	}
	return access.CheckExposure(cfg.Addr, a.APITokens != "" || a.OAuthIssuer != "", a.InsecureNoAuth)
}

// edgeState is what Main keeps of the access configuration.
type edgeState struct {
	access.Edge                 // API tokens and TLS, reloaded on SIGHUP
	links       *fleetkey.Links // the key of signed download links; nil without API tokens
}

// accessOptions builds the API's access options from cfg (and the edge
// state Main keeps to reload them). Without --download-signing-key the key
// that signs download links is generated once and kept where every replica
// finds it: in an S3 store shared (a link one replica made must open on the
// next), else in the data directory (fleetkey.OpenLinks).
func accessOptions(cfg Config, shared blob.Store, log *slog.Logger) (*api.AccessOptions, edgeState, error) {
	var st edgeState // NewMain has refused an exposed address without tokens (checkExposure)
	a := cfg.Access
	o := &api.AccessOptions{
		MetricsNeedToken: a.MetricsNeedToken,
		GuardHosts:       access.Loopback(cfg.Addr),
		AllowedHosts:     cfg.AllowedHosts,
		CORSOrigins:      a.CORSOrigins,
		LinkTTL:          cfg.DownloadTTL,
	}
	if a.APITokens != "" {
		k, err := access.Open(a.APITokens)
		if err != nil {
			return nil, st, fmt.Errorf("--api-tokens: %w", err)
		}
		st.Tokens, o.Tokens = k, k
	}
	if a.OAuthIssuer != "" {
		var err error
		o.OAuth, err = api.NewOAuthOptions(api.OAuthSettings{Issuer: a.OAuthIssuer, Resource: a.OAuthResource,
			IntrospectionURL: a.OAuthIntrospectionURL, ClientFile: a.OAuthClientFile,
			DefaultScopes: a.OAuthDefaultScopes, PublicBaseURL: cfg.PublicBaseURL}) // the issuer is not contacted here
		if err != nil {
			return nil, st, err
		}
	}
	if a.APITokens != "" || a.OAuthIssuer != "" {
		var err error
		lc := fleetkey.LinksConfig{Flag: []byte(a.DownloadSigningKey), Store: shared, DataDir: cfg.DataDir, TTL: cfg.DownloadTTL,
			Margin: cfg.Signing.RefreshPeriod() + refreshTimeout(cfg), Timeout: cfg.StoreTimeout}
		if st.links, err = fleetkey.OpenLinks(lc, log); err != nil {
			return nil, st, err
		}
		o.Signer = st.links.Signer()
		if o.Owners, err = access.NewOwners(filepath.Join(cfg.DataDir, access.OwnersFileName)); err != nil {
			return nil, st, fmt.Errorf("owners of generated files: %w", err)
		}
	}
	if a.TLSCert != "" {
		c, err := access.NewCertReloader(a.TLSCert, a.TLSKey)
		if err != nil {
			return nil, st, err
		}
		st.Certs = c
	}
	return o, st, nil
}

// Reload re-reads the tokens file and the TLS certificate (SIGHUP).
func (m *Main) Reload() { m.edge.Reload(m.Log) }

// watchEdge reloads on SIGHUP, the tokens file whenever it changes, and
// with an S3 store the download link keys at every keyring refresh
// (fleetkey.Links.RefreshLogged), until ctx ends.
func (m *Main) watchEdge(ctx context.Context) {
	if m.edge.Tokens == nil && m.edge.Certs == nil {
		return
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				m.Reload()
			}
		}
	}()
	if k := m.edge.Tokens; k != nil {
		go k.Watch(ctx, tokensWatchInterval, m.Log)
	}
	if l := m.edge.links; l != nil && l.Store() != nil {
		go every(ctx, m.Config.Signing.RefreshPeriod(), m.refreshLinkKeys)
	}
}

// tokensWatchInterval is how often the tokens file is checked for changes.
const tokensWatchInterval = 2 * time.Second

var cmdTokenSpec = &command{
	Command: cli.Command{
		Name:     "token",
		Summary:  "issue an API token: printed once, with its line for --api-tokens",
		Synopsis: "new NAME [--scope GLOB,...] [--rate PER_MINUTE]",
		About: `Make a new random API token for a client called NAME. The first line of
the output is the token (shown once: give it to the client, which sends
Authorization: Bearer TOKEN); the second is its entry for the --api-tokens
file, which holds only the token's SHA-256. Add the line to the file's
"tokens" list; the server re-reads the file when it changes. Rotate a token by
adding a new one, moving the client over, then deleting the old line.
`,
		Args:     [][2]string{{"NAME", "the token's name in logs and metrics (letters, digits, ._@-)"}},
		Exit:     "0, or 2 on a usage error",
		Examples: []string{"precisiond token new orchestrator", "precisiond token new reporting --scope 'generate_file,date_*' --rate 60"},
	},
	run: cmdToken,
}

// cmdToken is `precisiond token new NAME [--tools a,b*] [--rate N]`.
func cmdToken(c *command, args []string, e *cli.Env) int {
	var toolsFlag *string
	var rate *int
	// The flags follow "new NAME" (the flag package stops at the first
	// argument), so those two are taken first.
	name, flags := "", args
	if len(args) >= 2 && args[0] == "new" && !strings.HasPrefix(args[1], "-") {
		name, flags = args[1], args[2:]
	}
	_, _, code, ok := c.start(flags, e, 0, func(fs *flag.FlagSet) {
		toolsFlag = fs.String("scope", "", "comma-separated globs of the tools the token may call (default: all)")
		rate = fs.Int("rate", 0, "requests per minute (0: unlimited)")
	})
	if !ok {
		return code
	}
	if name == "" {
		return c.Fail(e, "want: token new NAME")
	}
	if *rate < 0 {
		return c.Fail(e, "--rate must not be negative")
	}
	secret, line, err := access.Issue(name, cli.SplitList(*toolsFlag), *rate)
	if err != nil {
		return c.Fail(e, "%v", err)
	}
	fmt.Fprintln(e.Stdout, secret)
	fmt.Fprintln(e.Stdout, string(line))
	return 0
}

// apiTokenEnv is the variable the client commands (verify --url) take an API
// token from.
const apiTokenEnv = "PRECISIOND_API_TOKEN"

// healthURL is where `precisiond health` probes the configured server:
// https when it serves TLS.
func healthURL(cfg Config) string {
	scheme := "http://"
	if cfg.Access.TLSCert != "" {
		scheme = "https://"
	}
	return scheme + cfg.Addr + "/health"
}

// refreshTimeout bounds one refresh of the keys from the store.
func refreshTimeout(cfg Config) time.Duration { return max(10*time.Second, cfg.StoreTimeout) }

// refreshLinkKeys is the background step of a running service on an S3
// store (watchEdge).
func (m *Main) refreshLinkKeys() {
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout(m.Config))
	defer cancel()
	m.edge.links.RefreshLogged(ctx, m.Log)
}

package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/answercheck"
	"github.com/precisiond/precisiond/internal/attest"
)

// loadJWKS reads a key set from a file or a URL; a URL without a path is a
// server's base URL, whose key set is at /.well-known/jwks.json.
func loadJWKS(arg string) (*attest.KeySet, error) {
	var data []byte
	var err error
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") {
		u, perr := url.Parse(arg)
		if perr != nil {
			return nil, fmt.Errorf("--jwks %q: %v", arg, perr)
		}
		if strings.Trim(u.Path, "/") == "" {
			u.Path = api.JWKSPath
		}
		data, err = answercheck.Fetch(u.String(), "", false) // the key set is public
	} else {
		data, err = os.ReadFile(arg)
	}
	if err != nil {
		return nil, fmt.Errorf("--jwks: %w", err)
	}
	keys, err := attest.ParseJWKS(data)
	if err != nil {
		return nil, fmt.Errorf("--jwks %s: %w", arg, err)
	}
	return keys, nil
}

package evidence

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"time"

	"github.com/digitorus/timestamp"
)

// tsaClient talks to the operator's timestamp authorities: configured backends, trusted like
// the translation server, so not through the outbound guard.
var tsaClient = &http.Client{Timeout: 30 * time.Second}

// stamp asks every authority for an RFC 3161 timestamp over sums (the record's SHA256SUMS) and
// returns the responses that check out, numbered from 1, and what failed.
func (s *Service) stamp(ctx context.Context, sums []byte) ([]Stamp, []string) {
	var stamps []Stamp
	var errs []string
	for _, u := range s.TSA {
		resp, ts, err := RequestTimestamp(ctx, u, sums)
		if err != nil {
			errs = append(errs, "timestamp "+u+": "+err.Error())
			continue
		}
		stamps = append(stamps, Stamp{N: len(stamps) + 1, TSA: u, Time: ts.Time.UTC(), Response: resp})
	}
	return stamps, errs
}

// RequestTimestamp asks the authority at u for a timestamp over the SHA-256 of data, with its
// certificate in the token, and checks the reply: granted, signed, over that hash, with our
// nonce. It returns the DER TimeStampResp as received.
func RequestTimestamp(ctx context.Context, u string, data []byte) ([]byte, *timestamp.Timestamp, error) {
	nonce, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		return nil, nil, err
	}
	q, err := timestamp.CreateRequest(bytes.NewReader(data), &timestamp.RequestOptions{Hash: crypto.SHA256, Certificates: true, Nonce: nonce})
	if err != nil {
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(q))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/timestamp-query")
	resp, err := tsaClient.Do(req)
	if err != nil {
		return nil, nil, errors.New("the authority did not answer")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("the authority answered %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	ts, err := timestamp.ParseResponse(body)
	if err != nil {
		return nil, nil, fmt.Errorf("the reply is not a valid timestamp: %w", err)
	}
	sum := sha256.Sum256(data)
	switch {
	case ts.HashAlgorithm != crypto.SHA256 || !bytes.Equal(ts.HashedMessage, sum[:]):
		return nil, nil, errors.New("the timestamp is over another hash")
	case ts.Nonce == nil || ts.Nonce.Cmp(nonce) != 0:
		return nil, nil, errors.New("the timestamp does not answer this request (nonce)")
	case len(ts.Certificates) == 0:
		return nil, nil, errors.New("the timestamp holds no certificate")
	}
	return body, ts, nil
}

package main

import (
	"archive/zip"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sightline/sightline/internal/evidence"
)

func runEvidence(args []string) error {
	if len(args) == 0 || args[0] != "verify" {
		return errors.New("usage: sightline evidence verify [--tsa-cert PEM] FILE")
	}
	return runEvidenceVerify(args[1:], os.Stdout)
}

// errVerifyFailed ends the command with status 1 after the report said what failed.
var errVerifyFailed = errors.New("evidence verify: the file does not verify")

// runEvidenceVerify checks a bundle or a case export offline and prints one line per check.
func runEvidenceVerify(args []string, out io.Writer) error {
	fs := newFlagSet("evidence verify", "Check an evidence bundle or a case export offline: hashes, WARC records and RFC 3161 timestamps.")
	certFile := fs.String("tsa-cert", "", "PEM file of the timestamp authority's certificate (or its root): each timestamp's certificate must lead to it")
	if err := parseFlagsAndArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: sightline evidence verify [--tsa-cert PEM] FILE")
	}
	var roots *x509.CertPool
	if *certFile != "" {
		b, err := os.ReadFile(*certFile)
		if err != nil {
			return err
		}
		roots = x509.NewCertPool()
		n := 0
		for block, rest := pem.Decode(b); block != nil; block, rest = pem.Decode(rest) {
			cert, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				return fmt.Errorf("--tsa-cert: %w", err)
			}
			roots.AddCert(cert)
			n++
		}
		if n == 0 {
			return errors.New("--tsa-cert: no certificate in the file")
		}
	}
	zr, err := zip.OpenReader(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("%s is not a ZIP: %w", fs.Arg(0), err)
	}
	defer zr.Close()
	rep := evidence.Verify(&zr.Reader, roots)
	failed := 0
	for _, f := range rep.Findings {
		if f.Problem != "" {
			failed++
			fmt.Fprintf(out, "FAIL  %s: %s\n", f.File, f.Problem)
		} else {
			fmt.Fprintf(out, "ok    %s: %s\n", f.File, f.Note)
		}
	}
	if !rep.OK() {
		fmt.Fprintf(out, "%s does NOT verify: %d problems\n", fs.Arg(0), failed)
		return errVerifyFailed
	}
	fmt.Fprintf(out, "%s verifies: %d checks passed\n", fs.Arg(0), len(rep.Findings))
	return nil
}

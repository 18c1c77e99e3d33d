package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/store"
)

func openStore(ctx context.Context, sf storeFlags) (*store.Store, error) {
	var c server.Config
	sf.apply(&c)
	return server.OpenStore(ctx, c)
}

// apply sets the store's part of a node's configuration. The secret key itself comes only from
// the environment, never a flag: every user of a machine can read its command lines.
func (s storeFlags) apply(c *server.Config) {
	c.DataDir, c.DB, c.SecretKeyFile = s.dataDir, s.db, s.secretKeyFile
	c.SecretKey = os.Getenv("SIGHTLINE_SECRET_KEY")
}

func runMigrate(args []string) error {
	fs := newFlagSet("migrate", "Apply the store's migrations and exit.")
	var sf storeFlags
	sf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	s, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer s.Close()
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("store migrated to version %d (%s)\n", v, s.Dialect())
	return nil
}

const userUsage = `usage:
  sightline user create --org NAME --email E --password P [--role owner|admin|member] [--tenant-admin]
  sightline user reset-mfa --email E`

func runUser(args []string) error {
	if len(args) == 0 {
		return errors.New(userUsage)
	}
	switch args[0] {
	case "create":
		return runUserCreate(args[1:])
	case "reset-mfa":
		return runUserResetMFA(args[1:])
	}
	return errors.New(userUsage)
}

// runUserResetMFA turns off the two-step verification of a user who lost their authenticator
// and recovery codes; they sign in with their password and may turn it on again.
func runUserResetMFA(args []string) error {
	fs := newFlagSet("user reset-mfa", "Turn off a user's two-step verification (they lost their authenticator); audited.")
	var sf storeFlags
	sf.register(fs)
	var email string
	fs.StringVar(&email, "email", "", "the user's e-mail address")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	s, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer s.Close()
	a, err := auth.New(ctx, s, auth.Options{})
	if err != nil {
		return err
	}
	u, err := s.UserByEmail(ctx, email)
	if err != nil {
		return describe(err)
	}
	if err := a.ResetMFA(ctx, u, 0); err != nil {
		return describe(err)
	}
	fmt.Printf("two-step verification of %s is off; they sign in with their password and may turn it on again\n", u.Email)
	return nil
}

func runUserCreate(args []string) error {
	fs := newFlagSet("user create", "Create a user, and its organization when it does not exist yet.")
	var sf storeFlags
	sf.register(fs)
	var n account.NewUser
	var role string
	fs.StringVar(&n.Tenant, "tenant", account.DefaultTenant, "tenant of the organization")
	fs.StringVar(&n.Organization, "org", "", "organization name (created if needed)")
	fs.StringVar(&n.Email, "email", "", "the user's e-mail address, used to sign in")
	fs.StringVar(&n.Password, "password", "", "the user's password (at least 8 characters)")
	fs.StringVar(&n.Name, "name", "", "display name (default: the e-mail's local part)")
	fs.StringVar(&role, "role", "member", "role in the organization: owner, admin or member")
	fs.BoolVar(&n.TenantAdmin, "tenant-admin", false, "make the user a tenant admin")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	n.Role = account.Role(role)
	ctx := context.Background()
	s, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer s.Close()
	u, err := account.NewService(s).CreateUser(ctx, n)
	if err != nil {
		return describe(err)
	}
	fmt.Printf("created user %s (id %d) in organization %q as %s\n", u.Email, u.ID, n.Organization, n.Role)
	return nil
}

const tokenUsage = `usage:
  sightline token create --email E --name N [--scope ingest] [--expires 90d]
  sightline token list --email E
  sightline token revoke --email E --name N`

func runToken(args []string) error {
	if len(args) == 0 {
		return errors.New(tokenUsage)
	}
	switch args[0] {
	case "create":
		return runTokenCreate(args[1:])
	case "list":
		return runTokenList(args[1:])
	case "revoke":
		return runTokenRevoke(args[1:])
	}
	return errors.New(tokenUsage)
}

// openAuth opens the store and the auth service over it, for the token commands.
func openAuth(ctx context.Context, sf storeFlags) (*auth.Service, func(), error) {
	s, err := openStore(ctx, sf)
	if err != nil {
		return nil, nil, err
	}
	a, err := auth.New(ctx, s, auth.Options{})
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return a, func() { s.Close() }, nil
}

func runTokenCreate(args []string) error {
	fs := newFlagSet("token create", "Create a long-lived API token; the token is the last line printed.")
	var sf storeFlags
	sf.register(fs)
	var email, name, scope, expires string
	fs.StringVar(&email, "email", "", "e-mail of the user the token acts as")
	fs.StringVar(&name, "name", "", "a name to recognise the token by")
	fs.StringVar(&scope, "scope", "", `limit the token: "ingest" may only push posts (default: acts as the user)`)
	fs.StringVar(&expires, "expires", "", `how long the token works: days ("90d") or a duration ("12h") (default: until revoked)`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ttl, err := parseLifetime(expires)
	if err != nil {
		return fmt.Errorf("--expires: %w", err)
	}
	ctx := context.Background()
	a, closeStore, err := openAuth(ctx, sf)
	if err != nil {
		return err
	}
	defer closeStore()
	var until time.Time
	if ttl > 0 {
		until = time.Now().Add(ttl)
	}
	value, token, err := a.CreateAPITokenUntil(ctx, email, name, strings.Fields(scope), until)
	if err != nil {
		return describe(err)
	}
	lifetime := "until revoked"
	if !token.ExpiresAt.IsZero() {
		lifetime = "until " + token.ExpiresAt.Format(time.RFC3339)
	}
	fmt.Printf("created API token %q (id %d) for %s, valid %s; it is shown only once:\n%s\n", token.Name, token.ID,
		email, lifetime, value)
	return nil
}

// parseLifetime reads a token's lifetime: a number of days ("90d") or a Go duration ("12h");
// empty is no expiry (0).
func parseLifetime(text string) (time.Duration, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, nil
	}
	var d time.Duration
	if days, ok := strings.CutSuffix(text, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n > 100*365 {
			return 0, fmt.Errorf("%q is not a number of days such as 90d", text)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(text); err != nil {
			return 0, fmt.Errorf("%q is neither days (90d) nor a duration (12h)", text)
		}
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q is not a positive lifetime", text)
	}
	return d, nil
}

func runTokenList(args []string) error {
	fs := newFlagSet("token list", "List a user's API tokens, revoked and expired ones too; never their values.")
	var sf storeFlags
	sf.register(fs)
	var email string
	fs.StringVar(&email, "email", "", "e-mail of the user whose tokens to list")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	a, closeStore, err := openAuth(ctx, sf)
	if err != nil {
		return err
	}
	defer closeStore()
	tokens, err := a.APITokens(ctx, email)
	if err != nil {
		return describe(err)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSCOPES\tCREATED\tLAST USED\tEXPIRES\tREVOKED")
	for _, t := range tokens {
		scopes := strings.Join(t.Scopes, " ")
		if scopes == "" {
			scopes = "(acts as the user)"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", t.Name, scopes, when(t.CreatedAt, "-"), when(t.LastUsedAt, "never"),
			when(t.ExpiresAt, "never"), when(t.RevokedAt, "no"))
	}
	return w.Flush()
}

// when writes a time for the token list, or none when it is zero.
func when(t time.Time, none string) string {
	if t.IsZero() {
		return none
	}
	return t.UTC().Format(time.RFC3339)
}

func runTokenRevoke(args []string) error {
	fs := newFlagSet("token revoke", "Revoke a user's API tokens of that name; they get 401 from the next request on.")
	var sf storeFlags
	sf.register(fs)
	var email, name string
	fs.StringVar(&email, "email", "", "e-mail of the user the token acts as")
	fs.StringVar(&name, "name", "", "the name of the token(s) to revoke")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	a, closeStore, err := openAuth(ctx, sf)
	if err != nil {
		return err
	}
	defer closeStore()
	n, err := a.RevokeAPIToken(ctx, email, name)
	if err != nil {
		return describe(err)
	}
	fmt.Printf("revoked %d API token(s) named %q for %s\n", n, name, email)
	return nil
}

// describe turns a validation problem into one readable error line per field.
func describe(err error) error {
	p, ok := problem.As(err)
	if !ok || len(p.Fields) == 0 {
		return err
	}
	var lines []string
	for field, msgs := range p.Fields {
		lines = append(lines, field+": "+strings.Join(msgs, " "))
	}
	return errors.New(strings.Join(lines, "; "))
}

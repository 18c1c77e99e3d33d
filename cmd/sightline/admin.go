package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/store"
)

func openStore(ctx context.Context, sf storeFlags) (*store.Store, error) {
	return server.OpenStore(ctx, server.Config{DataDir: sf.dataDir, DB: sf.db})
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

func runUser(args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: sightline user create --org NAME --email E --password P [--role owner|admin|member]")
	}
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
	if err := parseFlags(fs, args[1:]); err != nil {
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

func runToken(args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: sightline token create --email E --name N [--scope ingest]")
	}
	fs := newFlagSet("token create", "Create a long-lived API token; the token is the last line printed.")
	var sf storeFlags
	sf.register(fs)
	var email, name, scope string
	fs.StringVar(&email, "email", "", "e-mail of the user the token acts as")
	fs.StringVar(&name, "name", "", "a name to recognise the token by")
	fs.StringVar(&scope, "scope", "", `limit the token: "ingest" may only push posts (default: acts as the user)`)
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	ctx := context.Background()
	s, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer s.Close()
	a, err := auth.New(ctx, s)
	if err != nil {
		return err
	}
	value, token, err := a.CreateAPIToken(ctx, email, name, strings.Fields(scope))
	if err != nil {
		return describe(err)
	}
	fmt.Printf("created API token %q (id %d) for %s; it is shown only once:\n%s\n", token.Name, token.ID, email, value)
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

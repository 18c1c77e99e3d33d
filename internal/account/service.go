package account

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/password"
	"github.com/sightline/sightline/internal/problem"
)

// Store is the persistence accounts need.
type Store interface {
	CountUsers(ctx context.Context) (int, error)
	Tenant(ctx context.Context, id int64) (Tenant, error)
	TenantByName(ctx context.Context, name string) (Tenant, error)
	CreateTenant(ctx context.Context, t *Tenant) error
	Organization(ctx context.Context, id int64) (Organization, error)
	OrganizationByName(ctx context.Context, tenantID int64, name string) (Organization, error)
	CreateOrganization(ctx context.Context, o *Organization) error
	User(ctx context.Context, id int64) (User, error)
	// CreateUser writes the audit entries in the same transaction; one without a ModelID names the user created.
	CreateUser(ctx context.Context, u *User, role Role, audit ...AuditEntry) error
	// UpdateUserSettings and UpdateUserContact write the audit entries in the same transaction.
	UpdateUserSettings(ctx context.Context, u User, audit ...AuditEntry) error
	UpdateUserContact(ctx context.Context, userID int64, name, username string, audit ...AuditEntry) error
	MembershipRole(ctx context.Context, organizationID, userID int64) (Role, error)
	Members(ctx context.Context, organizationID int64) ([]Member, error)
}

// Service carries out account rules over a Store.
type Service struct{ store Store }

func NewService(store Store) *Service { return &Service{store: store} }

// DefaultTenant and DefaultOrganization are where the first administrator lands.
const (
	DefaultTenant       = "default"
	DefaultOrganization = "Default"
)

// NewUser describes a user to create; the tenant and organization are created when missing.
type NewUser struct {
	Tenant       string
	Organization string
	Email        string
	Password     string
	Name         string
	Role         Role
	TenantAdmin  bool
	// SupportEmail becomes the tenant's support contact when the tenant is created.
	SupportEmail string
	// ACL is the user's product access; nil gives every product.
	ACL *ACL
	// By is who created the user, for the audit log (0: the operator's CLI or bootstrap).
	By int64
}

// CreateUser validates and creates a user, making the tenant and organization if needed.
func (s *Service) CreateUser(ctx context.Context, n NewUser) (User, error) {
	n.Email = strings.ToLower(strings.TrimSpace(n.Email))
	fields := map[string][]string{}
	if addr, err := mail.ParseAddress(n.Email); err != nil || addr.Address != n.Email {
		fields["email"] = []string{"The email must be a valid email address."}
	}
	if len(n.Password) < password.MinLength {
		fields["password"] = []string{"The password must be at least " + strconv.Itoa(password.MinLength) + " characters."}
	}
	if n.Role == "" {
		n.Role = RoleMember
	}
	if !n.Role.Valid() {
		fields["role"] = []string{"The role must be owner, admin or member."}
	}
	if strings.TrimSpace(n.Organization) == "" {
		fields["organization"] = []string{"The organization field is required."}
	}
	if len(fields) > 0 {
		return User{}, problem.Invalid("The given data was invalid.", fields)
	}
	if n.Tenant == "" {
		n.Tenant = DefaultTenant
	}
	tenant, err := s.store.TenantByName(ctx, n.Tenant)
	if problem.Is(err, problem.KindNotFound) {
		tenant = Tenant{Name: n.Tenant, LogoutAllowed: true, SupportEmail: n.SupportEmail}
		err = s.store.CreateTenant(ctx, &tenant)
	}
	if err != nil {
		return User{}, err
	}
	org, err := s.store.OrganizationByName(ctx, tenant.ID, strings.TrimSpace(n.Organization))
	if problem.Is(err, problem.KindNotFound) {
		org = Organization{TenantID: tenant.ID, Name: strings.TrimSpace(n.Organization), FeatureFlags: DefaultFeatureFlags()}
		err = s.store.CreateOrganization(ctx, &org)
	}
	if err != nil {
		return User{}, err
	}
	hash, err := password.Hash(n.Password)
	if err != nil {
		return User{}, err
	}
	name := strings.TrimSpace(n.Name)
	username, _, _ := strings.Cut(n.Email, "@")
	if name == "" {
		name = username
	}
	acl := ACL{Beacon: true, Pro: true, Enterprise: true, LocateAPI: true}
	if n.ACL != nil {
		acl = *n.ACL
	}
	u := User{
		TenantID: tenant.ID, OrganizationID: org.ID, Name: name, Email: n.Email, Username: username,
		PasswordHash: hash, IsTenantAdmin: n.TenantAdmin,
		ACL:                            acl,
		IsTranslationEnrichmentEnabled: true, IsMentionedLocationsEnrichmentEnabled: true,
		DisplayTheme: ThemeSystem, MediaSensitivity: MediaBlur,
	}
	if err := s.store.CreateUser(ctx, &u, n.Role, AuditEntry{TenantID: tenant.ID, OrganizationID: org.ID,
		UserID: n.By, Model: "user", Action: "created", NewValue: u.Email + " (" + string(n.Role) + ")"}); err != nil {
		return User{}, err
	}
	return u, nil
}

// Bootstrap creates the first administrator (tenant admin and owner of the Default
// organization in the default tenant, and its support contact) when no user exists yet. It
// reports whether it did.
func (s *Service) Bootstrap(ctx context.Context, email, password string) (bool, error) {
	n, err := s.store.CountUsers(ctx)
	if err != nil || n > 0 {
		return false, err
	}
	_, err = s.CreateUser(ctx, NewUser{Tenant: DefaultTenant, Organization: DefaultOrganization, Email: email,
		Password: password, Name: "Administrator", Role: RoleOwner, TenantAdmin: true, SupportEmail: email})
	return err == nil, err
}

// Profile is everything the app needs to boot: the user, their organization, tenant and role.
type Profile struct {
	User         User
	Organization Organization
	Tenant       Tenant
	Role         Role
}

// Profile loads the user's profile.
func (s *Service) Profile(ctx context.Context, userID int64) (Profile, error) {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return Profile{}, err
	}
	org, err := s.store.Organization(ctx, u.OrganizationID)
	if err != nil {
		return Profile{}, err
	}
	tenant, err := s.store.Tenant(ctx, u.TenantID)
	if err != nil {
		return Profile{}, err
	}
	role, err := s.store.MembershipRole(ctx, org.ID, u.ID)
	if err != nil {
		return Profile{}, err
	}
	return Profile{User: u, Organization: org, Tenant: tenant, Role: role}, nil
}

// OrganizationWithMembers is an organization and its members.
type OrganizationWithMembers struct {
	Organization Organization
	Members      []Member
}

// OrganizationMembers loads an organization and its members. The caller has checked access.
func (s *Service) OrganizationMembers(ctx context.Context, organizationID int64) (OrganizationWithMembers, error) {
	org, err := s.store.Organization(ctx, organizationID)
	if err != nil {
		return OrganizationWithMembers{}, err
	}
	members, err := s.store.Members(ctx, organizationID)
	return OrganizationWithMembers{Organization: org, Members: members}, err
}

// SetDisplayTheme changes the user's theme to light, dark or system.
func (s *Service) SetDisplayTheme(ctx context.Context, userID int64, theme string) (User, error) {
	if theme != ThemeLight && theme != ThemeDark && theme != ThemeSystem {
		return User{}, problem.InvalidField("display_theme", "The display theme must be light, dark or system.")
	}
	return s.updateSettings(ctx, userID, "display_theme", func(u *User) (string, string) {
		old := u.DisplayTheme
		u.DisplayTheme = theme
		return old, theme
	})
}

// Switches are the profile settings a user turns on and off (search-side.md section 7), by the
// name of their PATCH .../profile/update/{name} call.
var switches = map[string]func(*User) *bool{
	"is-translation-enrichment-enabled":         func(u *User) *bool { return &u.IsTranslationEnrichmentEnabled },
	"is-mentioned-locations-enrichment-enabled": func(u *User) *bool { return &u.IsMentionedLocationsEnrichmentEnabled },
	"is-inbox-streaming-enabled":                func(u *User) *bool { return &u.IsInboxStreamingEnabled },
}

// Toggle flips the named switch of the user's profile.
func (s *Service) Toggle(ctx context.Context, userID int64, name string) (User, error) {
	field, ok := switches[name]
	if !ok {
		return User{}, problem.NotFound("There is no %s setting.", name)
	}
	return s.updateSettings(ctx, userID, name, func(u *User) (string, string) {
		on := field(u)
		*on = !*on
		return strconv.FormatBool(!*on), strconv.FormatBool(*on)
	})
}

// SetMediaSensitivity chooses whether sensitive media is blurred or shown.
func (s *Service) SetMediaSensitivity(ctx context.Context, userID int64, value string) (User, error) {
	if value != MediaBlur && value != MediaShow {
		return User{}, problem.InvalidField("media_sensitivity", "The media sensitivity must be blur or show.")
	}
	return s.updateSettings(ctx, userID, "media_sensitivity", func(u *User) (string, string) {
		old := u.MediaSensitivity
		u.MediaSensitivity = value
		return old, value
	})
}

// updateSettings applies change to the user's settings, stores them and audits the change.
func (s *Service) updateSettings(ctx context.Context, userID int64, field string, change func(*User) (before, after string)) (User, error) {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return User{}, err
	}
	before, after := change(&u)
	// Settings rows read like every other audit row (docs/tenant-api.md, "Audit logs"): the one
	// field that changed, as compact JSON before and after.
	value := func(v string) string {
		b, _ := json.Marshal(map[string]any{strings.ReplaceAll(field, "-", "_"): settingValue(v)})
		return string(b)
	}
	if err := s.store.UpdateUserSettings(ctx, u, AuditEntry{TenantID: u.TenantID, OrganizationID: u.OrganizationID,
		UserID: u.ID, Model: "settings", ModelID: strconv.FormatInt(u.ID, 10), Action: "updated",
		PreviousValue: value(before), NewValue: value(after)}); err != nil {
		return User{}, err
	}
	return u, nil
}

// Contact field rules (search-side.md section 5: '{field} is required' and a maximum length).
const (
	MaxNameLength     = 100
	MaxUsernameLength = 50
	MsgUsernameChars  = "Username may contain only letters, numbers, dots, dashes and underscores."
)

// UpdateContact changes the user's name and username (the e-mail address is how they sign in and
// is not changed here). The username is a handle shown to the organization, not unique and not
// used to sign in.
func (s *Service) UpdateContact(ctx context.Context, userID int64, name, username string) (User, error) {
	name, username = strings.TrimSpace(name), strings.TrimSpace(username)
	fields := map[string][]string{}
	check := func(field, label, value string, max int) {
		switch n := utf8.RuneCountInString(value); {
		case n == 0:
			fields[field] = []string{label + " is required"}
		case n > max:
			fields[field] = []string{fmt.Sprintf("%s may be at most %d characters.", label, max)}
		}
	}
	check("name", "Name", name, MaxNameLength)
	check("username", "Username", username, MaxUsernameLength)
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		fields["name"] = []string{"Name may not contain control characters."}
	}
	if _, bad := fields["username"]; !bad && strings.IndexFunc(username, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_'
	}) >= 0 {
		fields["username"] = []string{MsgUsernameChars}
	}
	if len(fields) > 0 {
		for _, f := range []string{"name", "username"} {
			if msgs := fields[f]; len(msgs) > 0 {
				return User{}, problem.Invalid(msgs[0], fields)
			}
		}
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return User{}, err
	}
	if u.Name == name && u.Username == username {
		return u, nil
	}
	// As every audited change: the changed fields before and after, as compact JSON.
	before, _ := json.Marshal(map[string]string{"name": u.Name, "username": u.Username})
	after, _ := json.Marshal(map[string]string{"name": name, "username": username})
	if err := s.store.UpdateUserContact(ctx, userID, name, username, AuditEntry{TenantID: u.TenantID,
		OrganizationID: u.OrganizationID, UserID: u.ID, Model: "user", ModelID: strconv.FormatInt(u.ID, 10),
		Action: "updated", PreviousValue: string(before), NewValue: string(after)}); err != nil {
		return User{}, err
	}
	u.Name, u.Username = name, username
	return u, nil
}

// settingValue keeps switches as JSON booleans and everything else as text.
func settingValue(v string) any {
	if b, err := strconv.ParseBool(v); err == nil && (v == "true" || v == "false") {
		return b
	}
	return v
}

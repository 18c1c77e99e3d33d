import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import SettingsBrightnessOutlined from '@mui/icons-material/SettingsBrightnessOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { DisplayTheme } from '../api/settings';
import { PasswordForm } from '../components/settings/PasswordForm';
import { SessionsTable } from '../components/settings/SessionsTable';
import { SocialIntegrations } from '../components/settings/SocialIntegrations';
import { WebhookSecret } from '../components/WebhookSecret';
import { PageHeader } from '../components/PageHeader';
import { useOrganizationQuery } from '../hooks/useOrganizationQuery';
import { useDisplayThemeMutation, useInboxStreamingMutation, useProfile } from '../hooks/useProfileQuery';
import { useSnackbar } from '../hooks/useSnackbar';

const themes: { value: DisplayTheme; label: string; icon: ReactNode }[] = [
  { value: 'light', label: 'Light', icon: <LightModeOutlined fontSize="small" /> },
  { value: 'dark', label: 'Dark', icon: <DarkModeOutlined fontSize="small" /> },
  { value: 'system', label: 'System', icon: <SettingsBrightnessOutlined fontSize="small" /> },
];

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 }, borderRadius: 3 }}>
      <Typography variant="h3" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2.5 }}>
        {description}
      </Typography>
      {children}
    </Paper>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join('');
}

/** /settings: the signed-in user's profile, appearance and organization. */
export function SettingsPage() {
  const profile = useProfile();
  const organization = useOrganizationQuery();
  const themeChange = useDisplayThemeMutation();
  const streamingChange = useInboxStreamingMutation();
  const snackbar = useSnackbar();

  const chooseTheme = (value: DisplayTheme | null) => {
    if (!value || value === profile.display_theme) return;
    themeChange.mutate(value, {
      onSuccess: () => snackbar.show({ text: 'Theme saved', color: 'success' }),
      onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
    });
  };

  return (
    <Box sx={{ p: { xs: 2, md: 4 }, maxWidth: 960, mx: 'auto' }}>
      <PageHeader title="Settings" subtitle="Your profile, how Sightline looks, and who is in your organization." />
      <Stack spacing={3}>
        <Section title="Profile" description="How you sign in and how your team sees you.">
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', fontWeight: 650 }}>
              {initials(profile.name || profile.email)}
            </Avatar>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="h4" component="p">
                {profile.name || profile.username}
              </Typography>
              <Typography color="text.secondary" noWrap>
                {profile.email}
              </Typography>
            </Box>
            <Box sx={{ flex: 1 }} />
            <Chip label={profile.role} sx={{ textTransform: 'capitalize' }} />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {profile.organization.name} · two-step verification {profile.is_mfa_enabled ? 'on' : 'off'}
          </Typography>
        </Section>

        <Section title="Appearance" description="Light, dark, or follow your device's setting.">
          <ToggleButtonGroup
            exclusive
            value={profile.display_theme}
            onChange={(_event, value: DisplayTheme | null) => chooseTheme(value)}
            aria-label="Theme"
            disabled={themeChange.isPending}
          >
            {themes.map((theme) => (
              <ToggleButton key={theme.value} value={theme.value} sx={{ gap: 1, px: 2.5 }}>
                {theme.icon}
                {theme.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Section>

        <Section title="Inbox" description="How new matches reach your Monitor inbox.">
          <FormControlLabel
            control={
              <Switch
                checked={profile.is_inbox_streaming_enabled}
                disabled={streamingChange.isPending}
                onChange={() =>
                  streamingChange.mutate(undefined, {
                    onSuccess: () => snackbar.show({ text: 'Inbox setting saved', color: 'success' }),
                    onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
                  })
                }
              />
            }
            label="Show new matches in the inbox as they arrive"
          />
          <Typography variant="body2" color="text.secondary">
            When this is off, the inbox tells you that new matches have arrived and shows them when you ask.
          </Typography>
        </Section>

        <Section title="Password" description="Changing it signs you out everywhere else.">
          <PasswordForm />
        </Section>

        <Section
          title="Sessions"
          description="Where you are signed in. Ending a session signs that browser out at once."
        >
          <SessionsTable />
        </Section>

        <Section title="Social integrations" description="Your accounts on other networks that Sightline may use for you.">
          <SocialIntegrations />
        </Section>

        {(profile.role === 'owner' || profile.role === 'admin') && (
          <Section
            title="Webhook signing secret"
            description="Sightline signs every webhook call with your organization's secret, following the Standard Webhooks specification, so a receiver can check that the call came from Sightline unaltered."
          >
            <WebhookSecret
              organizationId={profile.organization.id}
              has={organization.data?.hasWebhookSecret === true}
              loading={organization.isPending}
            />
          </Section>
        )}

        <Section title="Organization" description="The people who share your saved searches and filters.">
          {organization.isError && <Alert severity="error">{organization.error.message}</Alert>}
          {organization.isPending && (
            <Stack spacing={1} role="status" aria-label="Loading members">
              {[0, 1, 2].map((row) => (
                <Skeleton key={row} variant="rounded" height={36} />
              ))}
            </Stack>
          )}
          {organization.data && (
            <Table size="small" aria-label={`Members of ${organization.data.name}`}>
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>E-mail</TableCell>
                  <TableCell>Role</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {organization.data.users.map((member) => (
                  <TableRow key={member.id}>
                    <TableCell>{member.name || member.username}</TableCell>
                    <TableCell>{member.email}</TableCell>
                    <TableCell sx={{ textTransform: 'capitalize' }}>{member.role}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Section>
      </Stack>
    </Box>
  );
}

import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import SettingsBrightnessOutlined from '@mui/icons-material/SettingsBrightnessOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { DisplayTheme } from '../api/settings';
import { ContactForm } from '../components/settings/ContactForm';
import { ApiTokensTable } from '../components/settings/ApiTokensTable';
import { MembersSection } from '../components/settings/MembersSection';
import { PasswordForm } from '../components/settings/PasswordForm';
import { SessionsTable } from '../components/settings/SessionsTable';
import { SocialIntegrations } from '../components/settings/SocialIntegrations';
import { StatisticsSection } from '../components/settings/StatisticsSection';
import { TwoStepVerification } from '../components/settings/TwoStepVerification';
import { WebhookSecret } from '../components/WebhookSecret';
import { PageHeader } from '../components/PageHeader';
import { useOrganizationQuery } from '../hooks/useOrganizationQuery';
import {
  useDisplayThemeMutation,
  useMediaSensitivityMutation,
  useInboxStreamingMutation,
  useMentionedLocationsMutation,
  useTranslationEnrichmentMutation,
  useProfile,
} from '../hooks/useProfileQuery';
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
  const mediaChange = useMediaSensitivityMutation();
  const placesChange = useMentionedLocationsMutation();
  const translationChange = useTranslationEnrichmentMutation();
  const snackbar = useSnackbar();
  const manager = profile.role === 'owner' || profile.role === 'admin';

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
          <ContactForm />
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

        <Section
          title="Sensitive media"
          description="Pictures in posts can show violence or abuse. Blurred, each one is shown only when you choose to reveal it."
        >
          <FormControlLabel
            control={
              <Switch
                checked={profile.media_sensitivity === 'blur'}
                disabled={mediaChange.isPending}
                onChange={(_event, blur) =>
                  mediaChange.mutate(blur ? 'blur' : 'show', {
                    onSuccess: () => snackbar.show({ text: 'Media setting saved', color: 'success' }),
                    onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
                  })
                }
              />
            }
            label="Blur pictures until I reveal them"
          />
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
          <FormControlLabel
            sx={{ mt: 2 }}
            control={
              <Switch
                checked={profile.is_mentioned_locations_enrichment_enabled}
                disabled={placesChange.isPending}
                onChange={() =>
                  placesChange.mutate(undefined, {
                    onSuccess: () => snackbar.show({ text: 'Inbox setting saved', color: 'success' }),
                    onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
                  })
                }
              />
            }
            label="Show places a post mentions"
          />
          <Typography variant="body2" color="text.secondary">
            Places named in a post's text, shown on its card and on the map. Geotagged places always show.
          </Typography>
          {profile.translation && (
            <>
              <FormControlLabel
                sx={{ mt: 2 }}
                control={
                  <Switch
                    checked={profile.is_translation_enrichment_enabled}
                    disabled={translationChange.isPending}
                    onChange={() =>
                      translationChange.mutate(undefined, {
                        onSuccess: () => snackbar.show({ text: 'Inbox setting saved', color: 'success' }),
                        onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
                      })
                    }
                  />
                }
                label="Translate posts into your browser's language"
              />
              <Typography variant="body2" color="text.secondary">
                Cards in another language open translated; the original is one click away.
              </Typography>
            </>
          )}
        </Section>

        <Section
          title="Two-step verification"
          description="A code from an authenticator app on your phone, asked for at sign-in after your password."
        >
          <TwoStepVerification />
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

        <Section
          title="API tokens"
          description="Tokens that let scripts call Sightline as you, those your tenant administrator made for you included. Revoking one stops it at once."
        >
          <ApiTokensTable />
        </Section>

        <Section
          title="Social integrations"
          description="Your accounts on other networks that Sightline may use for you."
        >
          <SocialIntegrations />
        </Section>

        {manager && (
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

        <Section
          title="Organization"
          description={
            manager
              ? 'The people who share your saved searches and filters. Owners and admins invite colleagues, change roles and remove members.'
              : 'The people who share your saved searches and filters.'
          }
        >
          <MembersSection profile={profile} />
        </Section>

        {manager && (
          <Section
            title="Statistics"
            description="What your organization did in Sightline over the last twelve months."
          >
            <StatisticsSection organizationId={profile.organization.id} />
          </Section>
        )}
      </Stack>
    </Box>
  );
}

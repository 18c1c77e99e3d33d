import InfoOutlined from '@mui/icons-material/InfoOutlined';
import LocationOnOutlined from '@mui/icons-material/LocationOnOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import type { Provider } from '../api/monitor';
import {
  checkState,
  isSuperset,
  onlyProvider,
  providersOfRegion,
  REGIONS,
  searchTypesOf,
  searchTypesTooltip,
  selectAll,
  selectAllSet,
  selectRegion,
  supersetTooltip,
  toggleProvider,
  type SearchType,
} from '../lib/providerSelection';
import { HELP_CENTRE_URL } from '../lib/support';
import { InfoPopover } from './InfoPopover';
import { ProviderIcon } from './ProviderIcon';

const searchTypeIcons: Record<SearchType, typeof SearchOutlined> = {
  location: LocationOnOutlined,
  keyword: SearchOutlined,
  author: PersonOutlined,
};

/** An info button that opens a small popup. */
function InfoPopup({ label, children }: { label: string; children: ReactNode }) {
  return (
    <InfoPopover
      label={label}
      trigger={(props) => (
        <IconButton size="small" aria-label={label} {...props}>
          <InfoOutlined fontSize="small" />
        </IconButton>
      )}
    >
      <Typography variant="body2">{children}</Typography>
    </InfoPopover>
  );
}

function ProviderRow({
  provider,
  providers,
  selection,
  showIcons,
  allowOverlap,
  onChange,
}: {
  provider: Provider;
  providers: Provider[];
  selection: string[];
  showIcons: boolean;
  allowOverlap: boolean;
  onChange: (next: string[]) => void;
}) {
  const checked = selection.includes(provider.name);
  const label = (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      {showIcons && <ProviderIcon icon={provider.icon} color={provider.color} displayName={provider.displayName} />}
      <Typography variant="body2" noWrap>
        {provider.displayName}
      </Typography>
    </Stack>
  );
  const types = searchTypesOf(provider);
  return (
    <Stack
      direction="row"
      sx={{
        alignItems: 'center',
        pr: 0.5,
        borderRadius: 1,
        '&:hover .only-button, &:focus-within .only-button': { opacity: 1 },
      }}
    >
      <Tooltip
        title={isSuperset(provider) && !allowOverlap ? supersetTooltip(provider, providers) : ''}
        placement="top-start"
        describeChild
      >
        <FormControlLabel
          sx={{ flex: 1, minWidth: 0, mr: 0 }}
          disabled={!provider.enabled}
          control={
            <Checkbox
              size="small"
              checked={checked}
              onChange={(event) =>
                onChange(toggleProvider(selection, providers, provider.name, event.target.checked, allowOverlap))
              }
            />
          }
          label={label}
        />
      </Tooltip>
      {provider.enabled ? (
        <>
          <Tooltip title={searchTypesTooltip(provider)}>
            <Stack
              direction="row"
              spacing={0.25}
              aria-label={searchTypesTooltip(provider)}
              role="img"
              sx={{ color: 'text.secondary', mr: 0.5 }}
            >
              {types.map((type) => {
                const Icon = searchTypeIcons[type];
                return <Icon key={type} sx={{ fontSize: 15 }} />;
              })}
            </Stack>
          </Tooltip>
          <Button
            className="only-button"
            size="small"
            aria-label={`Only ${provider.displayName}`}
            onClick={() => onChange(onlyProvider(selection, providers, provider.name, allowOverlap))}
            sx={{ minWidth: 0, px: 1, py: 0, opacity: { xs: 1, md: 0.55 } }}
          >
            Only
          </Button>
        </>
      ) : (
        <InfoPopup label={`About ${provider.displayName}`}>
          {provider.displayName} is a specialty data source, available to organizations with an approved use case.{' '}
          <Link href={HELP_CENTRE_URL} target="_blank" rel="noopener noreferrer">
            Learn more
          </Link>
        </InfoPopup>
      )}
    </Stack>
  );
}

/**
 * The data-source picker of monitor-area.md section 2: select all, an icon switch, the five
 * regions with their own boxes, and per provider a box, an Only button and its search types.
 */
export function ProviderSelector({
  providers,
  selection,
  onChange,
  allowOverlap = false,
}: {
  providers: Provider[];
  selection: string[];
  onChange: (next: string[]) => void;
  /** Whether superset providers may be chosen together with the providers they carry. */
  allowOverlap?: boolean;
}) {
  const [showIcons, setShowIcons] = useState(true);
  const all = checkState(selection, selectAllSet(providers, allowOverlap));
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 1 }}>
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={all === 'checked'}
                indeterminate={all === 'indeterminate'}
                onChange={(event) => onChange(selectAll(providers, event.target.checked, allowOverlap))}
              />
            }
            label={<Typography sx={{ fontWeight: 600 }}>Select all data sources</Typography>}
          />
          <InfoPopup label="About selecting all data sources">
            Select all chooses every data source available to you.
            {!allowOverlap &&
              ' Sources that already carry another source’s posts, such as X Firehose, are left out so results are not counted twice; choose them one by one.'}
          </InfoPopup>
        </Stack>
        <FormControlLabel
          control={<Switch checked={showIcons} onChange={(event) => setShowIcons(event.target.checked)} />}
          label="Show provider icons"
        />
      </Stack>
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' } }}
      >
        {REGIONS.map((region) => {
          const members = providersOfRegion(providers, region.id);
          if (members.length === 0) return null;
          const state = checkState(selection, selectAllSet(members, allowOverlap));
          return (
            <Box
              key={region.id}
              component="fieldset"
              sx={{
                m: 0,
                p: 1,
                border: 1,
                borderColor: 'divider',
                borderRadius: 2,
                gridColumn: region.id === 'global' ? { md: 'span 2', lg: 'span 3' } : undefined,
                minWidth: 0,
              }}
            >
              <Box component="legend" sx={{ px: 0.5 }}>
                <FormControlLabel
                  sx={{ mr: 0 }}
                  control={
                    <Checkbox
                      size="small"
                      checked={state === 'checked'}
                      indeterminate={state === 'indeterminate'}
                      onChange={(event) =>
                        onChange(selectRegion(selection, providers, region.id, event.target.checked, allowOverlap))
                      }
                    />
                  }
                  label={<Typography sx={{ fontWeight: 650, fontSize: 14 }}>{region.label}</Typography>}
                />
              </Box>
              <Box
                sx={{
                  display: 'grid',
                  columnGap: 1,
                  gridTemplateColumns:
                    region.id === 'global'
                      ? { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' }
                      : '1fr',
                }}
              >
                {members.map((provider) => (
                  <ProviderRow
                    key={provider.name}
                    provider={provider}
                    providers={providers}
                    selection={selection}
                    showIcons={showIcons}
                    allowOverlap={allowOverlap}
                    onChange={onChange}
                  />
                ))}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

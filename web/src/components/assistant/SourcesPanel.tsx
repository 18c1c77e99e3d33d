import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import type { AssistantSource } from '../../api/assistant';
import type { Provider } from '../../api/monitor';
import { useExternalLink } from '../../hooks/useExternalLink';
import { formatMessageTime, SOURCE_PREVIEW_CHARS, sourceAuthor } from '../../lib/assistant';
import { ProviderIcon } from '../ProviderIcon';

const UNKNOWN_PROVIDER_COLOR = '#6b7280';

/**
 * An answer's sources: a list, or the active source alone with a back control. The panel goes
 * back to its top whenever its sources change.
 */
export function SourcesPanel({
  sources,
  active,
  onActivate,
  providers,
  label,
}: {
  sources: AssistantSource[];
  /** Index of the active source, or null for the list. */
  active: number | null;
  onActivate: (index: number | null) => void;
  providers: Map<string, Provider>;
  label: string;
}) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.scrollTo?.({ top: 0 });
  }, [sources]);
  const source = active === null ? undefined : sources[active];
  return (
    <Box
      ref={panel}
      component="section"
      aria-label={label}
      sx={{ mt: 1, maxHeight: 360, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      {source && active !== null ? (
        <Box sx={{ p: 1.5 }}>
          <Button size="small" startIcon={<ArrowBackOutlined />} onClick={() => onActivate(null)}>
            Back to sources
          </Button>
          <SourceHeading source={source} number={active + 1} provider={providers.get(source.provider)} />
          <SourceText source={source} />
          <OriginalLink source={source} />
        </Box>
      ) : (
        <Stack component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {sources.map((s, index) => (
            <Box component="li" key={s.id || index} sx={{ borderTop: index > 0 ? 1 : 0, borderColor: 'divider' }}>
              <ButtonBase
                onClick={() => onActivate(index)}
                sx={{
                  display: 'block',
                  textAlign: 'left',
                  width: '100%',
                  p: 1.5,
                  '&:hover': { bgcolor: 'action.hover' },
                }}
              >
                <SourceHeading source={s} number={index + 1} provider={providers.get(s.provider)} />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {preview(s)}
                </Typography>
              </ButtonBase>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** The source's title and text, the title once when the text is the title. */
function sourceParts(source: AssistantSource): string[] {
  return source.text === source.title_text ? [source.text] : [source.title_text, source.text].filter(Boolean);
}

function preview(source: AssistantSource): string {
  const text = sourceParts(source).join(' — ');
  return text.length > 140 ? `${text.slice(0, 140).trimEnd()}…` : text;
}

function SourceHeading({ source, number, provider }: { source: AssistantSource; number: number; provider?: Provider }) {
  const name = provider?.displayName ?? source.provider;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
      <Typography variant="body2" sx={{ fontWeight: 700 }}>
        [{number}]
      </Typography>
      <ProviderIcon
        icon={provider?.icon ?? ''}
        color={provider?.color ?? UNKNOWN_PROVIDER_COLOR}
        displayName={name}
        size={20}
      />
      <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
        {sourceAuthor(source)}
      </Typography>
      <Typography variant="caption" color="text.secondary" noWrap>
        {name} · {formatMessageTime(new Date(source.created_at * 1000))}
      </Typography>
    </Stack>
  );
}

/** The source's text, cut with Show more / Show less when long. */
function SourceText({ source }: { source: AssistantSource }) {
  const [expanded, setExpanded] = useState(false);
  const text = sourceParts(source).join('\n\n');
  const long = text.length > SOURCE_PREVIEW_CHARS;
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {long && !expanded ? `${text.slice(0, SOURCE_PREVIEW_CHARS).trimEnd()}…` : text}
      </Typography>
      {long && (
        <Button size="small" onClick={() => setExpanded(!expanded)} sx={{ mt: 0.5, px: 0 }}>
          {expanded ? 'Show less' : 'Show more'}
        </Button>
      )}
    </Box>
  );
}

function OriginalLink({ source }: { source: AssistantSource }) {
  const openExternal = useExternalLink();
  if (!source.post_link) return null;
  return (
    <Button
      size="small"
      endIcon={<OpenInNewOutlined />}
      onClick={() => openExternal(source.post_link ?? '')}
      sx={{ mt: 1 }}
    >
      Original post
    </Button>
  );
}

import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import { alpha } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useAreaNavigation } from '../hooks/useAreaNavigation';
import type { ProductArea } from '../lib/productAreas';
import { RAIL_WIDTH } from '../theme';
import { areaIcons } from './areaIcons';
import { SightlineMark } from './SightlineMark';

// Account entries sit at the foot of the rail, apart from the product areas.
const accountAreas = new Set(['tenant', 'settings', 'logout']);

/** The cross-product navigation rail; hidden on extra-small screens, where the menu replaces it. */
export function LeftRail() {
  const { areas, active, loading, open } = useAreaNavigation();

  const button = (area: ProductArea) => {
    const Icon = areaIcons[area.id];
    const selected = area.id === active;
    const busy = area.id === loading;
    return (
      <Tooltip key={area.id} title={area.newTab ? 'Opens in a new tab' : ''} placement="right" describeChild>
        <ButtonBase
          component="a"
          href={area.href}
          aria-label={area.label}
          target={area.newTab ? '_blank' : undefined}
          rel={area.newTab ? 'noopener' : undefined}
          aria-current={selected ? 'page' : undefined}
          aria-busy={busy || undefined}
          onClick={(event) => open(area, event)}
          sx={(theme) => ({
            width: '100%',
            py: 1,
            display: 'flex',
            flexDirection: 'column',
            gap: 0.5,
            color: selected ? theme.palette.common.white : theme.palette.rail.text,
            '&:hover .rail-pill, &.Mui-focusVisible .rail-pill': {
              backgroundColor: alpha(theme.palette.common.white, 0.08),
            },
          })}
        >
          <Box
            className="rail-pill"
            sx={(theme) => ({
              width: 52,
              height: 32,
              borderRadius: 16,
              display: 'grid',
              placeItems: 'center',
              transition: theme.transitions.create('background-color'),
              backgroundColor: selected ? `${alpha(theme.palette.rail.selected, 0.28)} !important` : 'transparent',
            })}
          >
            {busy ? <CircularProgress size={20} color="inherit" aria-label={`Opening ${area.label}`} /> : <Icon />}
          </Box>
          <Typography
            component="span"
            sx={{ fontSize: 11.5, fontWeight: selected ? 650 : 500, lineHeight: 1.2, textAlign: 'center', px: 0.5 }}
          >
            {area.label}
          </Typography>
        </ButtonBase>
      </Tooltip>
    );
  };

  return (
    <Box
      component="nav"
      aria-label="Products"
      sx={(theme) => ({
        width: RAIL_WIDTH,
        flexShrink: 0,
        display: { xs: 'none', sm: 'flex' },
        flexDirection: 'column',
        alignItems: 'center',
        backgroundColor: theme.palette.rail.background,
        py: 1.5,
        gap: 0.5,
        overflowY: 'auto',
      })}
    >
      <Box sx={{ height: 48, display: 'grid', placeItems: 'center', mb: 1, color: 'common.white' }}>
        <SightlineMark titleAccess="Sightline" sx={{ fontSize: 30 }} />
      </Box>
      {areas.filter((area) => !accountAreas.has(area.id)).map(button)}
      <Box sx={{ flex: 1 }} />
      {areas.filter((area) => accountAreas.has(area.id)).map(button)}
    </Box>
  );
}

import { useTheme } from '@mui/material/styles';

/** Items per minute over the last hour as a small line; the label says the total. */
export function Sparkline({
  values,
  label,
  width = 120,
  height = 28,
}: {
  values: number[];
  label: string;
  width?: number;
  height?: number;
}) {
  const theme = useTheme();
  const top = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / top) * (height - 4)).toFixed(1)}`)
    .join(' ');
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <line x1={0} x2={width} y1={height - 1} y2={height - 1} stroke={theme.palette.divider} />
      {values.length > 0 && (
        <polyline points={points} fill="none" stroke={theme.palette.primary.main} strokeWidth={1.5} />
      )}
    </svg>
  );
}

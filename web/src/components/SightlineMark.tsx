import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';

/** The Sightline logo: a lens with a line of sight through it. */
export function SightlineMark(props: SvgIconProps) {
  return (
    <SvgIcon viewBox="0 0 32 32" {...props}>
      <circle cx="14" cy="14" r="9" fill="none" stroke="currentColor" strokeWidth="3" />
      <path d="M20.5 20.5 28 28" stroke="currentColor" strokeWidth="3.2" strokeLinecap="round" />
      <path d="M8 14h12" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" opacity="0.7" />
      <circle cx="14" cy="14" r="2.6" fill="currentColor" />
    </SvgIcon>
  );
}

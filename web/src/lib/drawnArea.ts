/** The message when the reverse geocoder fails (search-side.md section 8, "reverse geocode"). */
export const REVERSE_GEOCODE_FAILED = 'Could not name the drawn area.';

/** The label of a drawn area when the save dialog is prefilled: its place, else "Drawn area". */
export function drawnAreaLabel(address: string | undefined): string {
  return address ? `Area around ${address}` : 'Drawn area';
}

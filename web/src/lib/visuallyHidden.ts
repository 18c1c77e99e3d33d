/**
 * Styles that hide text from the eye but not from screen readers (a column's name, say). Sizes
 * are strings: in MUI's sx a bare 1 means 100%, which made each hidden "Actions" as wide as the
 * window and scrolled its table's page sideways.
 */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

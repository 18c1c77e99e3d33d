import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Role, TenantACL } from '../../api/tenant';
import { accessFlags, roles } from '../../lib/tenantLabels';

/** A user's role in their organization and the products they may use. */
export function AccessFields({
  role,
  acl,
  disabled,
  roleError,
  onRole,
  onACL,
}: {
  role: Role;
  acl: TenantACL;
  disabled: boolean;
  roleError?: string;
  onRole: (role: Role) => void;
  onACL: (acl: TenantACL) => void;
}) {
  return (
    <>
      <TextField
        select
        label="Role"
        fullWidth
        margin="dense"
        value={role}
        disabled={disabled}
        error={roleError !== undefined}
        helperText={roleError ?? 'Owners and admins manage the organization’s members and webhook secret.'}
        onChange={(event) => onRole(event.target.value as Role)}
      >
        {roles.map((r) => (
          <MenuItem key={r.value} value={r.value}>
            {r.label}
          </MenuItem>
        ))}
      </TextField>
      <FormControl component="fieldset" margin="dense" disabled={disabled}>
        <FormLabel component="legend">Subscription</FormLabel>
        <FormGroup row>
          {accessFlags.map((f) => (
            <FormControlLabel
              key={f.name}
              control={<Checkbox checked={acl[f.name]} onChange={(_event, on) => onACL({ ...acl, [f.name]: on })} />}
              label={f.label}
            />
          ))}
        </FormGroup>
      </FormControl>
    </>
  );
}

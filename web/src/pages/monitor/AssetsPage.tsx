import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ASSET_TYPES, type Asset, type AssetType } from '../../api/assets';
import { AssetDialog } from '../../components/assets/AssetDialog';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { useAssetsQuery, useDeleteAsset } from '../../hooks/useAssetQueries';
import { useConfirm } from '../../hooks/useConfirm';
import { useSnackbar } from '../../hooks/useSnackbar';
import { ASSET_TYPE_TEXT } from '../../lib/assetTypes';
import { countOf } from '../../lib/countFormat';
import { visuallyHidden } from '../../lib/visuallyHidden';

/** assets: the values the organization watches (IP addresses, domains, IIN/BINs…), by type. */
export function AssetsPage() {
  const assets = useAssetsQuery();
  const [type, setType] = useState<AssetType | ''>('');
  const [editor, setEditor] = useState<{ editing: Asset | null } | null>(null);
  const add = () => setEditor({ editing: null });
  const shown = (assets.data ?? []).filter((a) => type === '' || a.type === type);

  return (
    <>
      <PageHeader
        title="Assets"
        subtitle="What your organization watches: its domains, IP addresses, card ranges, people and places. Assets count toward your plan’s asset limit."
        actions={
          assets.data && assets.data.length > 0 ? (
            <Button variant="contained" startIcon={<AddOutlined />} onClick={add} sx={{ whiteSpace: 'nowrap' }}>
              Add an asset
            </Button>
          ) : undefined
        }
      />
      {assets.isPending ? (
        <Stack spacing={1} role="progressbar" aria-label="Loading assets">
          <Skeleton variant="rounded" height={40} />
          <Skeleton variant="rounded" height={40} />
        </Stack>
      ) : assets.isError ? (
        <LoadError onRetry={() => void assets.refetch()}>{assets.error.message}</LoadError>
      ) : assets.data.length === 0 ? (
        <EmptyState
          icon={ShieldOutlined}
          title="No assets yet"
          actions={
            <Button variant="contained" startIcon={<AddOutlined />} onClick={add}>
              Add the first asset
            </Button>
          }
        >
          Add what your organization owns or watches, such as its domains, IP addresses or the first digits of its
          cards, so everyone in it works from the same list.
        </EmptyState>
      ) : (
        <>
          <Stack direction="row" sx={{ mb: 2, alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <TextField
              select
              size="small"
              label="Type"
              value={type}
              onChange={(event) => setType(event.target.value as AssetType | '')}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              sx={{ width: 220 }}
            >
              <MenuItem value="">All types</MenuItem>
              {ASSET_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {ASSET_TYPE_TEXT[t].label}
                </MenuItem>
              ))}
            </TextField>
            <Typography variant="body2" color="text.secondary" role="status">
              {countOf(shown.length, 'asset', 'assets')}
            </Typography>
          </Stack>
          {shown.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
              No asset of this type yet.
            </Typography>
          ) : (
            <AssetTable items={shown} onEdit={(editing) => setEditor({ editing })} />
          )}
        </>
      )}
      <AssetDialog open={editor !== null} editing={editor?.editing ?? null} onClose={() => setEditor(null)} />
    </>
  );
}

function AssetTable({ items, onEdit }: { items: Asset[]; onEdit: (asset: Asset) => void }) {
  const confirm = useConfirm();
  const remove = useDeleteAsset();
  const snackbar = useSnackbar();
  const askToDelete = (asset: Asset) =>
    confirm({
      title: `Delete “${asset.value}”?`,
      text: 'It leaves your organization’s assets for everyone. This cannot be undone.',
      icon: 'warning',
      acceptLabel: 'Delete',
      onAccept: () =>
        remove.mutate(asset.id, {
          onSuccess: () => snackbar.show({ color: 'success', text: `“${asset.value}” deleted` }),
          onError: (error) => snackbar.show({ color: 'error', text: error.message }),
        }),
    });

  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Table aria-label="Assets">
        <TableHead>
          <TableRow>
            <TableCell>Type</TableCell>
            <TableCell>Value</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Added by</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Updated</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((a) => (
            <TableRow key={a.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{ASSET_TYPE_TEXT[a.type].label}</TableCell>
              <TableCell sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{a.value}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{a.ownerEmail}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                <RelativeTime date={new Date(a.updatedAt * 1000)} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {a.canEdit && (
                  <>
                    <Tooltip title="Edit">
                      <IconButton aria-label={`Edit ${a.value}`} onClick={() => onEdit(a)}>
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Delete">
                      <IconButton aria-label={`Delete ${a.value}`} onClick={() => askToDelete(a)}>
                        <DeleteOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

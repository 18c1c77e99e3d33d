import { useMutation } from '@tanstack/react-query';
import { writeSupport } from '../api/support';

/** Sends a support request; nothing cached changes. */
export function useWriteSupport() {
  return useMutation({ mutationFn: writeSupport });
}

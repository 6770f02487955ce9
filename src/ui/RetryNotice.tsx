/**
 * The notice of a server read that got no answer while the link is up and has none kept to show
 * (terms, a price band): what could not be read, and a button to ask again. Nothing otherwise.
 */
import { Button } from './adm-button.js';
import type { ServerRead } from '../app/use-server-read.js';
import { useLink } from './OfflineBanner.js';

export function RetryNotice({
  read,
  className,
  message,
  retry,
}: {
  read: ServerRead<unknown>;
  className: string;
  message: string;
  /** The button's text. */
  retry: string;
}) {
  const online = useLink() === 'online';
  if (!online || read.state !== 'unavailable' || read.data !== null) return null;
  return (
    <div className={className} role="status">
      <p>{message}</p>
      <Button size="small" onClick={read.reload}>
        {retry}
      </Button>
    </div>
  );
}

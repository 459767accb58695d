import { useEffect, useState } from 'react';
import { encode } from 'uqr';
import type { ChannelHealth } from '../../../shared/protocol/admin-methods';
import { useApi } from '../api-context';
import { NtfySetupControls } from './NtfySetupControls';
import { ChatTestButton, isChatApp } from './ChatTestButton';
import { TelegramChatFinder } from './TelegramChatFinder';
import { formatTime } from '../util/format';

const STATE_LABELS: Record<ChannelHealth['state'], string> = {
  ok: 'working',
  failing: 'failing',
  unavailable: 'unavailable',
  idle: 'nothing sent yet',
  disabled: 'off',
};

const time = (at: string | undefined): string => (at ? formatTime(at) : '');

/** A QR code drawn as SVG squares from the encoded matrix: no markup is injected. */
function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { border: 2 });
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="ntfy-qr"
      viewBox={`0 0 ${size} ${size}`}
      width={192}
      height={192}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      {data.flatMap((row, y) =>
        row.map((dark, x) =>
          dark ? <rect key={`${x}-${y}`} x={x} y={y} width={1} height={1} fill="#000" /> : null,
        ),
      )}
    </svg>
  );
}

/**
 * Each notification channel's health (last delivery, last error), and the ntfy subscribe URL
 * as a QR code to scan with the ntfy app when the channel is set up, with buttons to make a
 * new random topic and to send a test notification (as `gatehouse ntfy setup` does).
 */
export function ChannelHealthPanel() {
  const api = useApi();
  const [channels, setChannels] = useState<ChannelHealth[] | undefined>();
  const [ntfyUrl, setNtfyUrl] = useState<string | undefined>();
  const [ntfyServer, setNtfyServer] = useState<string | undefined>();
  // Bumped after a test notification, whose outcome shows in the channel's health.
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let live = true;
    const load = (): void => {
      void api.getStatus().then(
        (s) => live && setChannels(s.channels),
        () => undefined,
      );
      void api.getSettings().then(
        ({ settings }) => {
          const ntfy = (
            settings as { notifications?: { channels?: { ntfy?: Record<string, unknown> } } }
          ).notifications?.channels?.ntfy;
          const server = typeof ntfy?.server === 'string' ? ntfy.server : '';
          const topic = typeof ntfy?.topic === 'string' ? ntfy.topic : '';
          if (!live) return;
          setNtfyUrl(ntfy?.enabled === true && topic ? `${server}/${topic}` : undefined);
          setNtfyServer(server);
        },
        () => undefined,
      );
    };
    load();
    const unsubscribe = api.onEvent((e) => {
      if (e.type === 'settings.changed') load();
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [api, reloads]);

  if (!channels && !ntfyUrl) return null;
  return (
    <section aria-labelledby="channel-health-title" className="panel" data-testid="channel-health">
      <h3 id="channel-health-title">Notification channels</h3>
      {channels && (
        <ul>
          {channels.map((c) => (
            <li key={c.channel} data-testid={`channel-${c.channel}`}>
              <strong>{c.channel}</strong>: {STATE_LABELS[c.state]}
              {c.lastDeliveryAt && <> · last sent {time(c.lastDeliveryAt)}</>}
              {(c.state === 'failing' || c.state === 'unavailable') && c.lastError && (
                <>
                  {' '}
                  · since {time(c.lastErrorAt)}: {c.lastError}
                </>
              )}
              {c.wayBack && (
                <span data-testid={`channel-${c.channel}-way-back`}>
                  {' '}
                  ·{' '}
                  {c.wayBack.connected
                    ? `presses come back (since ${time(c.wayBack.since)})`
                    : `presses not coming back since ${time(c.wayBack.since)}${c.wayBack.error ? `: ${c.wayBack.error}` : ''}`}
                </span>
              )}
              {isChatApp(c.channel) && (
                <ChatTestButton app={c.channel} onTested={() => setReloads((n) => n + 1)} />
              )}
              {c.channel === 'telegram' && (
                <TelegramChatFinder onChosen={() => setReloads((n) => n + 1)} />
              )}
            </li>
          ))}
        </ul>
      )}
      {ntfyUrl && (
        <div>
          <p>
            Subscribe in the ntfy app: <code>{ntfyUrl}</code>
          </p>
          <QrCode text={ntfyUrl} label={`QR code of ${ntfyUrl}`} />
        </div>
      )}
      {ntfyServer !== undefined && (
        <NtfySetupControls
          server={ntfyServer}
          configured={ntfyUrl !== undefined}
          onTested={() => setReloads((n) => n + 1)}
        />
      )}
    </section>
  );
}

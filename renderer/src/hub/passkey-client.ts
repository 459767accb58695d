import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { PASSKEY_PATH, PasskeyStatus } from '../../../shared/protocol/hub-passkeys';
import { HubCallError } from './hub-client';

/** A POST to one passkey step, relative to the page (as the dashboard's other calls are). */
async function post(path: string, body: unknown, csrf?: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(path.slice(1), window.location.href), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(csrf ? { 'X-Gatehouse-Csrf': csrf } : {}),
      },
      body: JSON.stringify(body ?? {}),
      credentials: 'same-origin',
    });
  } catch (error) {
    throw new HubCallError(0, `the hub is not reachable: ${String(error)}`);
  }
  const parsed = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok)
    throw new HubCallError(response.status, parsed.error ?? `HTTP ${response.status}`);
  return parsed;
}

/** The browser's side of WebAuthn, loaded only when a passkey is used (the daemon's page never). */
const webauthn = () => import('@simplewebauthn/browser');

/** Signs this browser in with a passkey (any of the hub's: the authenticator offers them). */
export async function signInWithPasskey(): Promise<void> {
  const { startAuthentication } = await webauthn();
  const { options } = (await post(PASSKEY_PATH.signInOptions, {})) as {
    options: PublicKeyCredentialRequestOptionsJSON;
  };
  await post(PASSKEY_PATH.signIn, await startAuthentication({ optionsJSON: options }));
}

/** The signed-in person's passkeys and what their session still needs. */
export async function passkeyStatus(csrf: string): Promise<PasskeyStatus> {
  return PasskeyStatus.parse(await post(PASSKEY_PATH.status, {}, csrf));
}

/** Makes a new passkey on this device for the signed-in person. */
export async function addPasskey(csrf: string): Promise<void> {
  const { startRegistration } = await webauthn();
  const { options } = (await post(PASSKEY_PATH.registerOptions, {}, csrf)) as {
    options: PublicKeyCredentialCreationOptionsJSON;
  };
  await post(PASSKEY_PATH.register, await startRegistration({ optionsJSON: options }), csrf);
}

/** Confirms the session with one of the person's passkeys (an admin's second factor). */
export async function confirmWithPasskey(csrf: string): Promise<void> {
  const { startAuthentication } = await webauthn();
  const { options } = (await post(PASSKEY_PATH.stepUpOptions, {}, csrf)) as {
    options: PublicKeyCredentialRequestOptionsJSON;
  };
  await post(PASSKEY_PATH.stepUp, await startAuthentication({ optionsJSON: options }), csrf);
}

export async function removePasskey(csrf: string, id: string): Promise<void> {
  await post(PASSKEY_PATH.remove, { id }, csrf);
}

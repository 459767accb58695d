import { z } from 'zod';

/**
 * Passkeys on the team dashboard: `POST /web/passkey/<step>` with a JSON body. The browser asks
 * for options (a challenge the hub keeps in its database), runs the WebAuthn ceremony, and sends
 * the answer back; the hub spends the challenge once, on whichever replica receives it.
 */

const Base64Url = z.string().regex(/^[A-Za-z0-9_-]*$/, 'base64url');
const Transport = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** What `startRegistration()` of @simplewebauthn/browser gives (a new credential). */
export const PasskeyRegistration = z.object({
  id: Base64Url.min(1).max(1024),
  rawId: Base64Url.min(1).max(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url.max(8192),
    attestationObject: Base64Url.max(32_768),
    authenticatorData: Base64Url.max(32_768).optional(),
    transports: z.array(Transport).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: Base64Url.max(8192).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({}).passthrough(),
});
export type PasskeyRegistration = z.infer<typeof PasskeyRegistration>;

/** What `startAuthentication()` gives (an assertion by an existing credential). */
export const PasskeyAssertion = z.object({
  id: Base64Url.min(1).max(1024),
  rawId: Base64Url.min(1).max(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url.max(8192),
    authenticatorData: Base64Url.max(8192),
    signature: Base64Url.max(8192),
    userHandle: Base64Url.max(1024).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({}).passthrough(),
});
export type PasskeyAssertion = z.infer<typeof PasskeyAssertion>;

export const PasskeyView = z.object({
  id: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().optional(),
  transports: z.array(z.string()),
});
export type PasskeyView = z.infer<typeof PasskeyView>;

/**
 * Where the session stands: its person's passkeys, and what an admin must still do before an
 * admin action (`register` a first passkey, `confirm` with one); `done` once confirmed, and
 * `not-needed` for people who are not admins.
 */
export const PasskeyStatus = z.object({
  passkeys: z.array(PasskeyView),
  confirmed: z.boolean(),
  secondFactor: z.enum(['not-needed', 'register', 'confirm', 'done']),
});
export type PasskeyStatus = z.infer<typeof PasskeyStatus>;

export const PasskeyRemove = z.object({ id: Base64Url.min(1).max(1024) });

/** The steps, each `POST /web/passkey/<step>`. */
export const PASSKEY_PATH = {
  signInOptions: '/web/passkey/sign-in-options',
  signIn: '/web/passkey/sign-in',
  registerOptions: '/web/passkey/register-options',
  register: '/web/passkey/register',
  stepUpOptions: '/web/passkey/step-up-options',
  stepUp: '/web/passkey/step-up',
  status: '/web/passkey/status',
  remove: '/web/passkey/remove',
} as const;

/** The refusal an admin action gets from a session not yet confirmed with a passkey. */
export const PASSKEY_REQUIRED = 'passkey required';

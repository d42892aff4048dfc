import { z } from "zod";

/**
 * The shape of a WebAuthn answer as @simplewebauthn/browser sends it (base64url fields);
 * @simplewebauthn/server checks everything inside. Bounded, so a hostile body stays small.
 */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\w-]*={0,2}$/, "expected base64url");

export const registrationResponse = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(16000),
    transports: z.array(z.string().max(20)).max(10).optional(),
    authenticatorData: b64url(16000).optional(),
    publicKey: b64url(4000).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

export const authenticationResponse = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(16000),
    signature: b64url(2000),
    userHandle: b64url(200).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

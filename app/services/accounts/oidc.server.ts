import { OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { getEnv } from "~/infra/env.server";

/**
 * Sign-in through an OpenID Connect provider (OAUTH_ISSUER), with remix-auth-oauth2's
 * authorization-code flow (state and PKCE in a cookie). The verify step reads the
 * player's claims from the provider's userinfo endpoint.
 */
const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  userinfo_endpoint: z.string().url(),
});

const claimsSchema = z.object({
  sub: z.string().min(1),
  email: z.string().email().optional(),
  email_verified: z.boolean().optional(),
  birthdate: z.string().optional(),
  given_name: z.string().optional(),
});

export type OidcClaims = { issuer: string; subject: string; email?: string; emailVerified?: boolean; birthdate?: string; givenName?: string };

export function oidcEnabled(): boolean {
  return getEnv().OAUTH_ISSUER !== undefined;
}

export function callbackUrl(request: Request): string {
  const origin = getEnv().PUBLIC_URL ?? new URL(request.url).origin;
  return new URL("/api/auth/callback", origin).toString();
}

const strategies = new Map<string, Promise<OAuth2Strategy<OidcClaims>>>();

async function build(redirectURI: string): Promise<OAuth2Strategy<OidcClaims>> {
  const env = getEnv();
  const issuer = env.OAUTH_ISSUER!.replace(/\/$/, "");
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`OpenID discovery failed: ${response.status}`);
  const discovery = discoverySchema.parse(await response.json());
  return new OAuth2Strategy<OidcClaims>(
    {
      clientId: env.OAUTH_CLIENT_ID!,
      clientSecret: env.OAUTH_CLIENT_SECRET!,
      authorizationEndpoint: discovery.authorization_endpoint,
      tokenEndpoint: discovery.token_endpoint,
      redirectURI,
      scopes: ["openid", "email", "profile"],
      cookie: {
        name: "__oidc",
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
        ...(env.NODE_ENV === "production" ? { secure: true as const } : {}),
      },
    },
    async ({ tokens }) => {
      const userinfo = await fetch(discovery.userinfo_endpoint, {
        headers: { Authorization: `Bearer ${tokens.accessToken()}` },
      });
      if (!userinfo.ok) throw new Error(`OpenID userinfo failed: ${userinfo.status}`);
      const claims = claimsSchema.parse(await userinfo.json());
      return {
        issuer: discovery.issuer,
        subject: claims.sub,
        email: claims.email,
        emailVerified: claims.email_verified,
        birthdate: claims.birthdate,
        givenName: claims.given_name,
      };
    },
  );
}

/** Starts (no code yet: throws the redirect to the provider) or finishes the sign-in. */
export async function authenticateWithOidc(request: Request): Promise<OidcClaims> {
  const redirectURI = callbackUrl(request);
  let strategy = strategies.get(redirectURI);
  if (!strategy) {
    strategy = build(redirectURI);
    strategies.set(redirectURI, strategy);
    strategy.catch(() => strategies.delete(redirectURI));
  }
  return (await strategy).authenticate(request);
}

import { Link } from "@remix-run/react";
import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from "react";

/**
 * The button's three looks (docs/design.md): `primary`, the one main action of a screen;
 * `secondary`, outlined, for a second action beside it; `link`, a quiet way elsewhere. The
 * classes are `.btn*` in app/tailwind.css, short so that repeated buttons keep pages small.
 */
export type ButtonVariant = "primary" | "secondary" | "link";

export function buttonClass(variant: ButtonVariant = "primary", className?: string): string {
  return `btn btn-${variant}${className ? ` ${className}` : ""}`;
}

export function Button({ variant, className, type = "button", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}

/**
 * A link that looks like a button of the given variant. To another page of the site it is the
 * router's link: with JavaScript, the page's data comes without a page load (a plain anchor
 * loaded the whole document, server render and all); a section of this page stays an anchor.
 */
export function ButtonLink({ variant, className, href, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant; href: string }) {
  if (href.startsWith("/") && !href.startsWith("//")) return <Link to={href} className={buttonClass(variant, className)} {...props} />;
  // eslint-disable-next-line jsx-a11y/anchor-has-content -- the content comes in props.children
  return <a href={href} className={buttonClass(variant, className)} {...props} />;
}

// The app's root (document, styles, toasts) with a loader that returns a constant.
import { constantData } from "./constants.server";

export { default, ErrorBoundary, Layout, links, meta } from "~/root";

export const loader = () => constantData("root");

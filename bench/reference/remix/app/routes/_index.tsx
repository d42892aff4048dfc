// The app's home page components with a loader that returns a constant.
import { constantData } from "../constants.server";

export { default, meta } from "~/routes/_index";

export const loader = () => constantData("routes/_index");

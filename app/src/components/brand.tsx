// The site's name and mark, a link home, in either header (`block` is the header's class block).
import { paths } from "@common/routes";
import { Link } from "react-router-dom";

export function Brand({ block }: { block: "site-header" | "sanctified-nav" }) {
  return (
    <Link to={paths.landing} className={`${block}__brand`}>
      <span className={`${block}__mark`} aria-hidden="true">
        mg
      </span>
      <span>metagenesis</span>
    </Link>
  );
}

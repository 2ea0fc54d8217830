export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>mg · deploy full-stack apps, functions and static sites into your own cloud account.</p>
    </footer>
  );
}

/**
 * Shown on every page while the site runs in demo mode (PRODUCT.md: demo mode is on only on
 * purpose and always says so): nobody should mistake demo coins for money.
 */
export function DemoBanner({ crowd = false }: { crowd?: boolean }) {
  return (
    <p data-testid="demo-banner" className="bg-gold px-4 py-1 text-center text-sm font-semibold text-on-gold">
      Demo site: payments are simulated with test cards, and no real money is charged or paid out.
      {crowd ? " Some players are simulated too: their names carry a “demo” mark." : null}
    </p>
  );
}

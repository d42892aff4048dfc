/** /fair's note on receipts: the key that signs them, to pin when checking one offline (ADR 079). */
export function ReceiptKeySection({ publicKey }: { publicKey: string }) {
  return (
    <section aria-labelledby="receipts-title" className="flex flex-col gap-2">
      <h2 id="receipts-title" className="text-2xl font-bold">
        Receipts
      </h2>
      <p>
        Every ticket has a receipt, linked from your history: the raffle, its commitment, your ticket and what you paid, and after the draw your ticket's
        inclusion proof, the winning ticket and the result. Its JSON download is signed with this Ed25519 key; check one offline with{" "}
        <code className="font-mono text-sm">node scripts/verify-draw.mjs --receipt receipt.json --key &lt;key&gt;</code>.
      </p>
      <p className="font-mono text-sm break-all" data-testid="receipt-key">
        {publicKey}
      </p>
    </section>
  );
}

-- Monthly refund rate per plan: refunded paid invoices / paid invoices.
-- Parameters: %(month)s (date, first day of the month), %(plan)s (text or NULL for every plan).
SELECT
    i.plan,
    COUNT(*) AS paid_invoices,
    COUNT(*) FILTER (WHERE EXISTS (
        SELECT 1 FROM billing.refunds r WHERE r.invoice_id = i.id
    )) AS refunded_invoices,
    ROUND(
        COUNT(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM billing.refunds r WHERE r.invoice_id = i.id
        ))::numeric / NULLIF(COUNT(*), 0) * 100, 2
    ) AS refund_rate_percent
FROM billing.invoices i
WHERE i.status = 'paid'
  AND date_trunc('month', i.paid_at) = %(month)s::date
  AND (%(plan)s::text IS NULL OR i.plan = %(plan)s::text)
GROUP BY i.plan
ORDER BY i.plan;

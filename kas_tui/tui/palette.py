"""How the app shows the OKF verdicts: one style per trust tier and status, for every widget."""

from __future__ import annotations

from rich.text import Text

from kas_tui.core.okf.lifecycle import TrustTier

#: The colour of each trust tier, lowest to highest.
TRUST_STYLE = {
    TrustTier.UNVERIFIED: "bright_black",
    TrustTier.MACHINE_CONFIRMED: "yellow",
    TrustTier.HUMAN_REVIEWED: "green",
}
#: The mark a tree row starts with: empty, half and full as the tier rises.
TRUST_MARK = {
    TrustTier.UNVERIFIED: "○",
    TrustTier.MACHINE_CONFIRMED: "◐",
    TrustTier.HUMAN_REVIEWED: "●",
}
#: A tier's name where a table column is narrow.
TRUST_SHORT = {
    TrustTier.UNVERIFIED: "unverified",
    TrustTier.MACHINE_CONFIRMED: "machine",
    TrustTier.HUMAN_REVIEWED: "human",
}


def trust_text(tier: TrustTier, *, short: bool = False) -> Text:
    """The tier's name in its colour (``short``: the narrow name)."""
    return Text(TRUST_SHORT[tier] if short else str(tier), TRUST_STYLE[tier])


def trust_mark(tier: TrustTier) -> tuple[str, str]:
    """The tier's tree mark and its style."""
    return TRUST_MARK[tier], TRUST_STYLE[tier]

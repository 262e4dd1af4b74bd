"""A simulation's menus show their longest choice whole, with room for the
arrow, even in a narrow column ("Work and ack in one transaction" was cut to "…one trans").

Fonts differ between systems (the defect was seen with a wider system font than this machine's),
so each menu must fit its longest choice 15% wider than measured here, plus 1.75rem for the arrow
and a gap."""
import pytest


MEASURE = """() => { const ctx = document.createElement('canvas').getContext('2d');
  // a menu the embed's level keeps back is in the page but not shown (crash_timing/levels.py): not measured
  return [...document.querySelectorAll('.sim-field select')].filter((s) => s.getClientRects().length).map((s) => {
    const cs = getComputedStyle(s); ctx.font = cs.font;
    const need = Math.max(...[...s.options].map((o) => ctx.measureText(o.text).width));
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return {where: s.id, need, room, rem: parseFloat(getComputedStyle(document.documentElement).fontSize)};
  }); }"""



@pytest.mark.parametrize("width", [700])
def test_every_menu_fits_its_longest_choice(real_page, real_site, width):
    page = real_page
    page.set_viewport_size({"width": width, "height": 800})
    tight = []
    for chapter in ("05-leases.html", "10-idempotency.html"):
        page.goto(real_site.at(chapter))
        page.locator("details.sim-more").evaluate_all("ds => ds.forEach((d) => { d.open = true; })")
        for menu in page.evaluate(MEASURE):
            if menu["need"] * 1.15 + 1.75 * menu["rem"] > menu["room"]:
                tight.append(f"{chapter} {menu['where']}: needs {menu['need']:.0f}px, has {menu['room']:.0f}px")
    assert not tight, "\n".join(tight)

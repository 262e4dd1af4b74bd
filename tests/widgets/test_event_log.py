"""The event log keeps the latest 150 entries, in order, whichever way a batch goes in: appended
(a few events), or written over the entries already there (a batch that replaces half the list or
more, as a playing live queue sends), and says how many earlier events it left out."""
from tests.widgets.conftest import Sim

LEASES = "05-leases.html"

RUN = """async (root) => {
  const src = [...document.scripts].find((s) => s.src.includes('/runtime.js')).src;
  const { EventLog } = await import(src.replace('/runtime.js', '/event-log.js'));
  const box = document.createElement('div');
  box.append(document.createElement('ol'));
  root.append(box);
  const log = new EventLog(box);
  const list = box.querySelector('ol');
  const texts = () => [...list.children].map((li) => (li.className ? 'note: ' : '') + li.textContent);
  let n = 0;
  const events = (count) => Array.from({ length: count }, () => ({ time: ++n / 10, text: `event ${n}` }));
  const seen = {};
  log.add(events(10));
  log.add(events(100));                       // appended: 110
  log.note('a note');                         // 111
  for (const li of list.children) li.old = true;
  log.add(events(120));                       // written over: the 111 kept, 39 more
  seen.afterBig = texts();
  seen.kept = [...list.children].filter((li) => li.old).length;
  log.add(events(200), 5);                    // 55 left out, then the latest 150
  seen.afterDrop = texts();
  log.add(events(3));
  log.note('another note');
  seen.end = texts();
  box.remove();
  return seen;
}"""


def event(i):
    return f"{round(i / 10, 2):g} s event {i}"


def test_the_log_keeps_the_latest_entries_in_order_however_a_batch_goes_in(module_page, real_site):
    module_page.goto(real_site.at(LEASES))
    seen = Sim(module_page, "live-queue").root.evaluate(RUN)
    everything = [event(i) for i in range(1, 111)] + ["note: a note"] + [event(i) for i in range(111, 231)]
    assert seen["afterBig"] == everything[-150:]
    assert seen["kept"] == 111, "a big batch writes over the entries there, rather than making new ones"
    # 200 came with 5 dropped before them: 55 left out, said by a note that the latest 150 push out
    assert seen["afterDrop"] == [event(i) for i in range(281, 431)]
    assert seen["end"] == [event(i) for i in range(285, 434)] + ["note: another note"]

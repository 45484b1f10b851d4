"""The computer players never hold a table's secret seed (issue 6: no peeking at the seed)."""

from bot.sessions.moves import computer_seed


def test_the_computer_seed_is_deterministic_per_decision_and_hides_the_table_seed():
    seed = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    seeds = [computer_seed(seed, seq) for seq in range(50)]
    assert seeds == [computer_seed(seed, seq) for seq in range(50)]  # same move after a restart
    assert len(set(seeds)) == 50
    # The engines draw chance from f"{seed}/{n}": the computer's seed is neither, nor contains the seed.
    assert not any(seed in s or s == f"{seed}/{n}" for n, s in enumerate(seeds))
    assert computer_seed("another-seed", 3) != seeds[3]

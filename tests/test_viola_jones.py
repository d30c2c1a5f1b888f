"""Tests of the Viola & Jones substitute (common.problems.viola_jones), spec add_gp_ucb.md Sec. 4.3."""
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from common.problems import opencv_reference
from common.problems import viola_jones as vj
from common.problems.viola_jones import FaceCascadeAccuracy

N_FACES, N_IMAGES = 200, 1000
# Stage thresholds printed at the top of haarcascade_frontalface_alt.xml (spec Sec. 4.3).
FIRST_THRESHOLDS = [0.82268941, 6.9566088, 9.4985428, 18.412970]


@pytest.fixture(scope="module")
def cascade():
    return vj.load_cascade()


@pytest.fixture(scope="module")
def problem():
    return FaceCascadeAccuracy()


@pytest.fixture(scope="module")
def dataset():
    return vj.build_dataset()


@pytest.fixture(scope="module")
def optimum(problem):
    return problem.exact_maximum()  # 5-10 s: a 0-1 program with about 4000 binaries


@pytest.fixture(scope="module")
def opencv_at_defaults(dataset):
    return opencv_reference.opencv_cascade_results(dataset[0])


def direct_stage_sums(image, cascade):
    """Stage sums of one window from plain pixel sums (no integral image), in float64."""
    pixels = image.astype(float)
    inner = pixels[1:-1, 1:-1]
    nf = np.sqrt(max(inner.size * np.sum(inner**2) - np.sum(inner) ** 2, 0.0)) or 1.0
    sums = np.zeros(cascade.n_stages)
    for stage, feature, threshold, left, right in zip(cascade.stump_stage, cascade.stump_feature,
                                                      cascade.stump_threshold, cascade.left_value,
                                                      cascade.right_value):
        raw = sum(weight * pixels[y:y + h, x:x + w].sum()
                  for (x, y, w, h), weight in zip(cascade.rects[feature], cascade.rect_weights[feature]))
        sums[stage] += left if raw / nf < threshold else right
    return sums


def test_cascade_has_22_stages_the_documented_thresholds_and_a_20x20_window(cascade):
    assert cascade.n_stages == 22
    assert cascade.window_size == (20, 20)
    np.testing.assert_allclose(cascade.stage_thresholds[:4], FIRST_THRESHOLDS, rtol=1e-7)
    assert np.bincount(cascade.stump_stage)[:3].tolist() == [3, 16, 21]
    assert len(cascade.stump_stage) == 2135


def test_cascade_parser_refuses_tilted_features(tmp_path):
    tree = ET.parse(vj.cascade_path())
    feature = tree.getroot().find("cascade").find("features")[5]
    ET.SubElement(feature, "tilted").text = "1"
    tree.write(tmp_path / "tilted.xml")
    with pytest.raises(ValueError, match="feature 5 is tilted"):
        vj.load_cascade(tmp_path / "tilted.xml")


def test_written_thresholds_are_read_back(cascade, tmp_path):
    thresholds = cascade.stage_thresholds * (1 + np.linspace(-0.1, 0.1, 22))
    path = opencv_reference.write_cascade_with_thresholds(thresholds, tmp_path / "modified.xml")
    np.testing.assert_array_equal(vj.load_cascade(path).stage_thresholds, thresholds)


def test_images_used_ship_with_scikit_image():
    # lfw_subset and these images are in the wheel; others are downloaded by pooch, which must not happen.
    import skimage.data

    shipped = {os.path.splitext(name)[0] for name in os.listdir(os.path.dirname(skimage.data.__file__))}
    assert {"lfw_subset", *vj.NONFACE_IMAGES} <= shipped
    assert not {"astronaut", "camera", "chelsea"} & set(vj.NONFACE_IMAGES)  # a face, a cameraman, a cat


def test_dataset_has_200_faces_first_then_800_non_faces(dataset):
    images, labels = dataset
    assert images.shape == (N_IMAGES, 20, 20) and images.dtype == np.uint8
    assert labels.tolist() == [True] * N_FACES + [False] * (N_IMAGES - N_FACES)


def test_faces_100_to_199_are_the_mirrors_of_the_first_100(dataset):
    images, _ = dataset
    np.testing.assert_array_equal(images[100:200], images[:100, :, ::-1])


def test_dataset_is_fixed_by_its_seed_and_only_the_crops_depend_on_it(dataset):
    other, _ = vj.build_dataset(seed=vj.DATASET_SEED + 1)
    np.testing.assert_array_equal(vj.build_dataset()[0], dataset[0])
    np.testing.assert_array_equal(other[:300], dataset[0][:300])
    assert (other[300:] != dataset[0][300:]).any(axis=(1, 2)).all()


def test_only_24_flat_lfw_non_faces_fail_opencvs_contrast_check(dataset):
    _, passes = vj.variance_norm_factors(dataset[0])
    failing = np.flatnonzero(~passes)
    assert len(failing) == 24 and np.all((failing >= 200) & (failing < 300))


def test_integral_images_hold_the_sums_of_the_upper_left_blocks(dataset):
    images = dataset[0][[0, 250, 999]]
    sums, squares = vj.integral_images(images)
    for y, x in [(0, 7), (1, 1), (13, 20), (20, 20), (9, 4)]:
        np.testing.assert_array_equal(sums[:, y, x], images[:, :y, :x].astype(int).sum(axis=(1, 2)))
        np.testing.assert_array_equal(squares[:, y, x], (images[:, :y, :x].astype(int) ** 2).sum(axis=(1, 2)))


def test_vectorised_stage_sums_equal_a_direct_per_feature_computation(dataset, cascade):
    rows = [0, 150, 230, 420, 777, 999]
    fast = vj.stage_sums(dataset[0][rows], cascade)
    slow = np.array([direct_stage_sums(dataset[0][i], cascade) for i in rows])
    # float32 leaves (as OpenCV stores them) against the file's float64 leaves: ~1e-7 per stump.
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-5)


def test_stage_sums_are_cached_in_the_problem(problem, dataset, cascade):
    np.testing.assert_array_equal(problem.sums, vj.stage_sums(dataset[0], cascade))


def test_thresholds_at_minus_infinity_accept_every_window(problem):
    assert vj.cascade_accepts(problem.sums, np.full(22, -np.inf)).all()
    # All but the 24 flat non-faces (contrast check) are accepted: correct are the 200 faces and those 24.
    assert problem.accuracy(np.full((1, 22), -np.inf))[0] == pytest.approx((N_FACES + 24) / N_IMAGES, abs=1e-12)


def test_lower_corner_of_a_huge_box_accepts_every_window(problem):
    huge = FaceCascadeAccuracy(rel_halfwidth=1e6)
    assert np.all(huge.threshold_bounds[:, 0] < problem.sums.min(axis=0))
    assert huge(np.zeros((1, 22)))[0] == pytest.approx((N_FACES + 24) / N_IMAGES, abs=1e-12)


def test_thresholds_above_every_stage_sum_reject_every_window(problem):
    above = problem.sums.max(axis=0) + 1e-9
    assert not vj.cascade_accepts(problem.sums, above).any()
    assert problem.accuracy(above[None, :])[0] == pytest.approx(0.8, abs=1e-12)
    assert FaceCascadeAccuracy(rel_halfwidth=1e6)(np.ones((1, 22)))[0] == pytest.approx(0.8, abs=1e-12)


def test_box_centre_gives_the_default_accuracy(problem):
    assert problem(np.full((1, 22), 0.5))[0] == problem.default_accuracy
    accepted = vj.cascade_accepts(problem.sums, problem.stage_thresholds, problem.passes_contrast_check)
    assert problem.default_accuracy == np.mean(accepted == problem.labels)
    # Measured: 95 of the 200 faces and none of the 800 non-faces are accepted.
    assert (accepted[:N_FACES].sum(), accepted[N_FACES:].sum()) == (95, 0)
    assert problem.default_accuracy == pytest.approx(0.895, abs=1e-12)


def test_box_is_centred_on_the_opencv_thresholds(problem, cascade):
    np.testing.assert_array_equal(problem.stage_thresholds, cascade.stage_thresholds)
    np.testing.assert_allclose(problem.threshold_bounds.mean(axis=1), cascade.stage_thresholds, rtol=1e-15)
    np.testing.assert_allclose(np.diff(problem.threshold_bounds, axis=1)[:, 0], 0.2 * cascade.stage_thresholds)
    np.testing.assert_array_equal(problem.thresholds(np.zeros((1, 22)))[0], problem.threshold_bounds[:, 0])
    np.testing.assert_allclose(problem.thresholds(np.ones((1, 22)))[0], problem.threshold_bounds[:, 1], rtol=1e-15)
    assert problem.bounds.shape == (22, 2) and np.all(problem.bounds == [0.0, 1.0])
    assert problem.dim == len(problem.parameter_names) == 22


def test_raising_one_threshold_never_accepts_a_new_window(problem):
    rng = np.random.default_rng(3)
    theta = problem.threshold_bounds[:, 0] + rng.random((200, 22)) * 0.3 * np.diff(problem.threshold_bounds)[:, 0]
    raised = theta.copy()
    raised[np.arange(200), rng.integers(0, 22, 200)] += rng.random(200)
    before = vj.cascade_accepts(problem.sums, theta)
    after = vj.cascade_accepts(problem.sums, raised)
    assert not (after & ~before).any()
    assert (before & ~after).any()  # and the check can see a change


def test_bitmask_accuracy_equals_the_direct_comparison(problem):
    rng = np.random.default_rng(4)
    inside = problem.thresholds(rng.random((300, 22)))
    # Thresholds exactly at stage sums (the ">=" ties), and mixes of +-inf.
    ties = problem.sums[rng.integers(0, N_IMAGES, (300, 22)), np.arange(22)]
    infinite = np.where(rng.random((50, 22)) < 0.8, -np.inf, np.inf)
    infinite[0] = -np.inf
    for thresholds in (inside, ties, np.nextafter(ties, -np.inf), infinite):
        direct = np.mean(vj.cascade_accepts(problem.sums, thresholds, problem.passes_contrast_check)
                         == problem.labels, axis=1)
        np.testing.assert_array_equal(problem.accuracy(thresholds), direct)


def test_accuracies_are_multiples_of_one_thousandth(problem):
    values = problem(np.random.default_rng(5).random((500, 22)))
    np.testing.assert_allclose(values * 1000, np.rint(values * 1000), rtol=0, atol=1e-9)


def test_opencv_agrees_with_every_decision_at_the_default_thresholds(problem, dataset, opencv_at_defaults):
    # The numpy cascade repeats OpenCV's float32 arithmetic; the smallest gap between a stump's value and its
    # threshold on these images is 97 float32 ulps, so exact agreement is expected (measured: 1000/1000).
    accepted, _ = opencv_at_defaults
    ours = vj.cascade_accepts(problem.sums, problem.stage_thresholds, problem.passes_contrast_check)
    assert np.mean(accepted == ours) == 1.0


def test_stump_values_are_far_from_their_thresholds_in_float32_ulps(dataset, cascade):
    _, passes = vj.variance_norm_factors(dataset[0])
    values = vj.feature_values(dataset[0][passes], cascade)[:, cascade.stump_feature].astype(float)
    thresholds = cascade.stump_threshold.astype(np.float32)
    gaps = np.abs(values - thresholds) / np.spacing(np.abs(thresholds)).astype(float)
    assert gaps.min() == 97.0


def test_opencvs_threshold_eps_changes_only_69_stage_0_tests_and_no_decision(problem):
    lowered = opencv_reference.opencv_stage_thresholds(problem.stage_thresholds)
    differ = (problem.sums >= lowered) != (problem.sums >= problem.stage_thresholds)
    rows, stages = np.nonzero(differ)
    assert len(rows) == 69 and np.all(stages == 0) and not problem.labels[rows].any()
    np.testing.assert_allclose(problem.sums[rows, 0] - problem.stage_thresholds[0], -3.35e-8, rtol=1e-3)
    np.testing.assert_array_equal(vj.cascade_accepts(problem.sums, lowered, problem.passes_contrast_check),
                                  vj.cascade_accepts(problem.sums, problem.stage_thresholds,
                                                     problem.passes_contrast_check))


def test_opencv_reports_our_last_stage_sum_for_accepted_windows(problem, opencv_at_defaults):
    accepted, last_stage_sum = opencv_at_defaults
    assert np.isnan(last_stage_sum[~accepted]).all()
    np.testing.assert_allclose(last_stage_sum[accepted], problem.sums[accepted, -1], rtol=1e-12)


@pytest.mark.parametrize("corner", ["lower", "optimum"])
def test_opencv_agrees_at_other_thresholds_written_into_the_file(problem, dataset, optimum, tmp_path, corner):
    # OpenCV lowers each threshold by 1e-5 when it reads the file (opencv_stage_thresholds).
    thresholds = problem.threshold_bounds[:, 0] if corner == "lower" else problem.thresholds(optimum[1][None])[0]
    path = opencv_reference.write_cascade_with_thresholds(thresholds, tmp_path / f"{corner}.xml")
    accepted, _ = opencv_reference.opencv_cascade_results(dataset[0], path)
    ours = vj.cascade_accepts(problem.sums, opencv_reference.opencv_stage_thresholds(thresholds), problem.passes_contrast_check)
    assert accepted.sum() > 100
    np.testing.assert_array_equal(accepted, ours)


def test_exact_maximum_is_attained_and_is_the_documented_optimal_value(problem, optimum):
    value, x = optimum
    assert value == problem.optimal_value == pytest.approx(0.975, abs=1e-12)
    assert np.all((x >= 0) & (x <= 1))
    assert problem(x[None])[0] == value


def test_no_random_or_coordinatewise_improved_point_beats_the_exact_maximum(problem):
    rng = np.random.default_rng(6)
    assert problem(rng.random((20_000, 22))).max() < problem.optimal_value
    # Exact line searches, coordinate by coordinate, from the box centre.
    low, high = problem.threshold_bounds.T
    theta, best = problem.stage_thresholds.copy(), problem.default_accuracy
    for _ in range(3):
        for k in range(22):
            inside = problem.sums[(problem.sums[:, k] >= low[k]) & (problem.sums[:, k] <= high[k]), k]
            trials = np.repeat(theta[None], len(inside) + 1, axis=0)
            trials[:, k] = np.append(inside, low[k])
            values = problem.accuracy(trials)
            if values.max() > best:
                theta, best = trials[np.argmax(values)], values.max()
    assert problem.default_accuracy < best <= problem.optimal_value


def test_other_boxes_leave_the_optimal_value_unset_but_computable():
    narrow = FaceCascadeAccuracy(rel_halfwidth=0.02)
    assert narrow.optimal_value is None
    value, x = narrow.exact_maximum()
    assert narrow(x[None])[0] == value == pytest.approx(0.96, abs=1e-12)
    assert narrow(np.random.default_rng(7).random((20_000, 22))).max() < value


def test_random_points_of_the_default_box_measured_statistics(problem):
    # Documented in the module docstring: most of the box rejects every window (accuracy 0.8) and no
    # uniform random point beats the OpenCV default.
    X = np.random.default_rng(0).random((10_000, 22))
    values = problem(X)
    assert (values.min(), np.median(values), values.max()) == pytest.approx((0.8, 0.8, 0.887), abs=1e-12)
    assert np.mean(values > problem.default_accuracy) == 0.0
    accepted = vj.cascade_accepts(problem.sums, problem.thresholds(X), problem.passes_contrast_check)
    assert np.mean(~accepted.any(axis=1)) == pytest.approx(0.9756, abs=1e-12)


def test_corners_of_the_default_box_measured_accuracies(problem):
    assert problem(np.zeros((1, 22)))[0] == pytest.approx(0.609, abs=1e-12)
    assert problem(np.ones((1, 22)))[0] == pytest.approx(0.8, abs=1e-12)


def test_random_points_of_a_narrower_box_measured_statistics():
    narrow = FaceCascadeAccuracy(rel_halfwidth=0.02)
    values = narrow(np.random.default_rng(0).random((10_000, 22)))
    assert (values.min(), np.median(values), values.max()) == pytest.approx((0.802, 0.837, 0.925), abs=1e-12)
    assert np.mean(values > narrow.default_accuracy) == pytest.approx(0.0183, abs=1e-12)


@pytest.mark.parametrize("bad", [0, -0.1, float("nan"), float("inf"), "0.1", True, None])
def test_bad_rel_halfwidth_raises_naming_it(bad):
    with pytest.raises(ValueError, match="rel_halfwidth"):
        FaceCascadeAccuracy(rel_halfwidth=bad)


@pytest.mark.parametrize("shape", [(22,), (3, 21), (1, 22, 1)])
def test_wrong_shape_raises_naming_the_problem(problem, shape):
    with pytest.raises(ValueError, match=r"shape \(n, 22\) for viola_jones"):
        problem(np.full(shape, 0.5))


def test_points_outside_the_unit_cube_raise(problem):
    x = np.full((2, 22), 0.5)
    x[1, 3] = 1.01
    with pytest.raises(ValueError, match="inside the box of viola_jones"):
        problem(x)


def test_nan_thresholds_raise_naming_the_argument(problem):
    with pytest.raises(ValueError, match="thresholds"):
        problem.accuracy(np.full((1, 22), np.nan))

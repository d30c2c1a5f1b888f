"""OpenCV's own face detector, the reference the Viola-Jones substitute's cascade evaluation is checked against.

:mod:`common.problems.viola_jones` evaluates OpenCV's frontal-face cascade itself, vectorized over windows and
thresholds; the functions here run ``cv2.CascadeClassifier`` on the same windows (:func:`opencv_cascade_results`),
with the stage thresholds OpenCV really compares with (:func:`opencv_stage_thresholds`) or with others written
into a copy of the cascade file (:func:`write_cascade_with_thresholds`), so that the tests can check that both
take the same decisions.
"""
import xml.etree.ElementTree as ET

import numpy as np

from common.problems.viola_jones import cascade_path

#: ``THRESHOLD_EPS`` of OpenCV's ``CascadeClassifierImpl::Data::read``: each stage threshold is lowered by it.
OPENCV_STAGE_THRESHOLD_EPS = 1e-5


def opencv_stage_thresholds(thresholds):
    """The thresholds OpenCV actually compares with: ``float32(theta) - 1e-5`` in float32.

    ``CascadeClassifierImpl::Data::read`` lowers each stage threshold by
    ``THRESHOLD_EPS = 1e-5`` and a stage fails if its sum is below the result.

    Parameters
    ----------
    thresholds : array-like

    Returns
    -------
    ndarray of float
    """
    lowered = np.asarray(thresholds, dtype=np.float32) - np.float32(OPENCV_STAGE_THRESHOLD_EPS)
    return lowered.astype(float)


def write_cascade_with_thresholds(stage_thresholds, destination, path=None):
    """Copy an OpenCV cascade file with its stage thresholds replaced.

    Parameters
    ----------
    stage_thresholds : array-like of shape (n_stages,)
        Written with ``repr`` (round-trip exact); OpenCV reads them as float.
    destination : str or path-like
        File to write.
    path : str, optional
        Source cascade; default :func:`cascade_path`.

    Returns
    -------
    str
        ``destination``.
    """
    tree = ET.parse(cascade_path() if path is None else path)
    stages = list(tree.getroot().find("cascade").find("stages"))
    stage_thresholds = np.asarray(stage_thresholds, dtype=float)
    if stage_thresholds.shape != (len(stages),):
        raise ValueError(f"stage_thresholds must have shape ({len(stages)},); got {stage_thresholds.shape}")
    for stage, value in zip(stages, stage_thresholds):
        stage.find("stageThreshold").text = repr(float(value))
    tree.write(destination, xml_declaration=True, encoding="utf-8")  # OpenCV needs the declaration
    return str(destination)


def opencv_cascade_results(images, path=None):
    """Run ``cv2.CascadeClassifier`` on each image as one 20x20 window.

    ``detectMultiScale`` with ``scaleFactor = 1.1`` and ``minSize = maxSize =
    (20, 20)`` on a 20x20 uint8 image evaluates exactly one window: scale 1 at
    position (0, 0); the next scale, 22x22, exceeds ``maxSize``.
    ``minNeighbors = 0`` returns the raw windows without grouping. The
    ``detectMultiScale3(..., outputRejectLevels=True)`` variant also returns
    the stage sum (``levelWeights``) of the last stage for each accepted
    window; in OpenCV 4.14 it reports accepted windows only.

    Parameters
    ----------
    images : array-like of shape (n, 20, 20), dtype uint8
    path : str, optional
        Cascade file; default :func:`cascade_path`. See
        :func:`write_cascade_with_thresholds` for other thresholds.

    Returns
    -------
    accepted : ndarray of shape (n,), dtype bool
    last_stage_sum : ndarray of shape (n,)
        The last stage's sum reported for accepted windows; NaN for rejected ones.
    """
    import cv2

    path = cascade_path() if path is None else str(path)
    classifier = cv2.CascadeClassifier(path)
    if classifier.empty():
        raise ValueError(f"OpenCV could not load the cascade {path!r}")
    images = np.ascontiguousarray(images, dtype=np.uint8)
    accepted = np.zeros(len(images), dtype=bool)
    last_stage_sum = np.full(len(images), np.nan)
    options = dict(scaleFactor=1.1, minNeighbors=0, flags=0, minSize=(20, 20), maxSize=(20, 20))
    for i, image in enumerate(images):
        found = classifier.detectMultiScale(image, **options)
        rects, _, weights = classifier.detectMultiScale3(image, outputRejectLevels=True, **options)
        if len(found) > 1 or len(rects) != len(found):
            raise RuntimeError(f"OpenCV returned {len(found)} and {len(rects)} windows on image {i}; "
                               "expected the same single window or none")
        accepted[i] = len(found) == 1
        if accepted[i]:
            last_stage_sum[i] = float(np.ravel(weights)[0])
    return accepted, last_stage_sum

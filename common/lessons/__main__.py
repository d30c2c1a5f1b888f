"""``python -m common.lessons strip IN OUT``: a student's copy of a lesson (:mod:`common.lessons.students`)."""
import sys

from common.lessons.students import main

sys.exit(main())

{{ config(materialized='table') }}
with trips as (
    select
        cast(start_station_id as bigint) as start_station_id,
        cast(end_station_id as bigint) as end_station_id,
        date_diff('minute', cast(started_at as timestamp), cast(ended_at as timestamp)) as minutes
    from {{ source('airbyte_schema', 'trips') }}
),
started as (
    select start_station_id as station_id, count(*) as trips_started, round(avg(minutes), 2) as avg_duration_minutes
    from trips group by 1
),
ended as (
    select end_station_id as station_id, count(*) as trips_ended from trips group by 1
)
select
    cast(s.station_id as bigint) as station_id,
    s.station_name,
    s.district,
    coalesce(st.trips_started, 0) as trips_started,
    coalesce(en.trips_ended, 0) as trips_ended,
    st.avg_duration_minutes,
    row_number() over (order by coalesce(st.trips_started, 0) desc, cast(s.station_id as bigint)) as usage_rank
from {{ source('airbyte_schema', 'stations') }} s
left join started st on st.station_id = cast(s.station_id as bigint)
left join ended en on en.station_id = cast(s.station_id as bigint)

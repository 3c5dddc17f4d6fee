{{ config(materialized='table') }}
with appts as (
    select cast(doctor_id as bigint) as doctor_id, status
    from {{ source('airbyte_schema', 'appointments') }}
),
per_doctor as (
    select
        doctor_id,
        count(*) filter (where status = 'completed') as completed_visits,
        round(count(*) filter (where status = 'no_show') / count(*), 3) as no_show_rate
    from appts group by doctor_id
),
doctors as (
    select cast(d.doctor_id as bigint) as doctor_id, d.first_name, d.last_name, dep.department_name,
           cast(d.department_id as bigint) as department_id
    from {{ source('airbyte_schema', 'doctors') }} d
    join {{ source('airbyte_schema', 'departments') }} dep
      on cast(dep.department_id as bigint) = cast(d.department_id as bigint)
)
select
    d.doctor_id,
    d.first_name || ' ' || d.last_name as doctor_name,
    d.department_name,
    coalesce(p.completed_visits, 0) as completed_visits,
    p.no_show_rate,
    case
        when coalesce(p.completed_visits, 0) >= 15 then 'high'
        when coalesce(p.completed_visits, 0) >= 8 then 'medium'
        else 'low'
    end as workload_band,
    row_number() over (
        partition by d.department_id order by coalesce(p.completed_visits, 0) desc, d.doctor_id
    ) as department_rank
from doctors d
left join per_doctor p on p.doctor_id = d.doctor_id
